/* ABT_xstream_exit from a ULT on a secondary ES terminates the calling ULT
 * (the call does not return) and the ES, even though work is still waiting
 * in the ES's pool; that work stays in the pool. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int after_exit, exiter_started, spinner_started, release_spinner,
    spinner_done;
static int exit_ret = -999;

static void exiter(void *arg)
{
    (void)arg;
    atomic_store(&exiter_started, 1);
    /* Let the spinner start, so the pool is not empty when we exit. */
    while (!atomic_load(&spinner_started))
        ABT_thread_yield();
    exit_ret = ABT_xstream_exit();
    atomic_store(&after_exit, 1); /* must never run */
}

static void spinner(void *arg)
{
    (void)arg;
    atomic_store(&spinner_started, 1);
    while (!atomic_load(&release_spinner))
        ABT_thread_yield();
    atomic_store(&spinner_done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread ex, sp;
    CHECK_OK(ABT_thread_create(pool, exiter, NULL, ABT_THREAD_ATTR_NULL, &ex));
    CHECK_OK(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &sp));

    /* Wait (bounded by the watchdog) for the ES to terminate by itself. */
    ABT_xstream_state state = ABT_XSTREAM_STATE_RUNNING;
    while (state != ABT_XSTREAM_STATE_TERMINATED) {
        CHECK_OK(ABT_xstream_get_state(es, &state));
        usleep(100);
    }
    CHECK_EQ(atomic_load(&exiter_started), 1);
    CHECK_EQ(atomic_load(&after_exit), 0);
    CHECK_EQ(exit_ret, -999);
    ABT_thread_state ts;
    CHECK_OK(ABT_thread_get_state(ex, &ts));
    CHECK_EQ(ts, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&ex));

    /* The spinner was left behind in the pool. */
    CHECK_EQ(atomic_load(&spinner_done), 0);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 1);
    CHECK_OK(ABT_thread_get_state(sp, &ts));
    CHECK_EQ(ts, ABT_THREAD_STATE_READY);

    CHECK_OK(ABT_xstream_join(es));
    /* Move the spinner to the primary ES and finish it there. */
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_OK(ABT_pool_pop(pool, &u));
    CHECK(u != ABT_UNIT_NULL);
    CHECK_OK(ABT_pool_push(main_pool, u));
    atomic_store(&release_spinner, 1);
    CHECK_OK(ABT_thread_free(&sp));
    CHECK_EQ(atomic_load(&spinner_done), 1);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
