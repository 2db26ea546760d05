/* A stacked scheduler that stopped for ABT_sched_exit may be stacked again
 * (it is not automatic, so it stays the user's): the request was for that
 * run only, and the new run must run its pool's work.
 *
 * S (BASIC over Q, not automatic, looking at events after every unit) is
 * stacked into P, ES 1's pool. W1 in Q calls ABT_sched_exit(S); S stops.
 * Then three ULTs go into Q and S is stacked into P again
 * (ABT_pool_add_sched fails with ABT_ERR_INV_SCHED until S's first run has
 * ended): S must run all three (the watchdog catches one never running). */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_sched s;
static atomic_int w2_ran;

static void w1_fn(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_sched_exit(s));
}

static void w2_fn(void *arg)
{
    (void)arg;
    atomic_fetch_add(&w2_ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool p, q;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 0, ABT_sched_basic_freq, 1,
                                     ABT_sched_config_var_end));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &q, cfg, &s));
    CHECK_OK(ABT_sched_config_free(&cfg));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
    for (int round = 0; round < 3; round++) {
        ABT_thread w1, w2[3];
        CHECK_OK(ABT_thread_create(q, w1_fn, NULL, ABT_THREAD_ATTR_NULL, &w1));
        int err;
        while ((err = ABT_pool_add_sched(p, s)) == ABT_ERR_INV_SCHED)
            usleep(1000); /* its previous run has not ended yet */
        CHECK_OK(err);
        CHECK_OK(ABT_thread_free(&w1));
        atomic_store(&w2_ran, 0);
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_thread_create(q, w2_fn, NULL, ABT_THREAD_ATTR_NULL, &w2[i]));
        while ((err = ABT_pool_add_sched(p, s)) == ABT_ERR_INV_SCHED)
            usleep(1000);
        CHECK_OK(err);
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_thread_free(&w2[i]));
        CHECK_EQ(atomic_load(&w2_ran), 3);
    }
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&s));
    CHECK_OK(ABT_pool_free(&q));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
