/* ABT_sched_basic_freq of 0 (or less) means "look at events at every
 * round", as in Argobots (its loop checks once the count of units run since
 * the last check reaches the frequency), never "never".
 *
 * A stacked basic scheduler S with a frequency of 0 runs U, which yields in
 * a loop until V has run; V waits in the parent's pool. S must still return
 * to its parent at its event checks, so that V runs, U ends and S finishes.
 * The same with -1. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int u_started, v_ran;

static void u_fn(void *arg)
{
    (void)arg;
    atomic_store(&u_started, 1);
    while (!atomic_load(&v_ran))
        ABT_thread_yield();
}

static void v_fn(void *arg)
{
    (void)arg;
    atomic_store(&v_ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    const int freqs[] = {0, -1};
    for (int i = 0; i < 2; i++) {
        ABT_pool p, q;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &q));
        ABT_sched_config cfg;
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, freqs[i],
                                         ABT_sched_config_var_end));
        ABT_sched s;
        CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &q, cfg, &s));
        CHECK_OK(ABT_sched_config_free(&cfg));
        atomic_store(&u_started, 0);
        atomic_store(&v_ran, 0);
        ABT_thread u, v;
        CHECK_OK(ABT_thread_create(q, u_fn, NULL, ABT_THREAD_ATTR_NULL, &u));
        CHECK_OK(ABT_pool_add_sched(p, s));
        ABT_xstream es;
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
        while (!atomic_load(&u_started))
            usleep(100);
        CHECK_OK(ABT_thread_create(p, v_fn, NULL, ABT_THREAD_ATTR_NULL, &v));
        CHECK_OK(ABT_thread_free(&v));
        CHECK_OK(ABT_thread_free(&u));
        CHECK_EQ(atomic_load(&v_ran), 1);
        CHECK_OK(ABT_xstream_free(&es));
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
