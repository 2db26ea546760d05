/* ABT_xstream_cancel stops a secondary ES without waiting for its pools to
 * drain; the ES becomes TERMINATED, the leftover work stays in the pool, and
 * the ES must still be joined/freed. The primary ES cannot be cancelled. An
 * idle ES can be cancelled too. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int started, release, done;

static void spinner(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    while (!atomic_load(&release))
        ABT_thread_yield();
    atomic_fetch_add(&done, 1);
}

static void wait_terminated(ABT_xstream es)
{
    ABT_xstream_state state = ABT_XSTREAM_STATE_RUNNING;
    while (state != ABT_XSTREAM_STATE_TERMINATED) {
        CHECK_OK(ABT_xstream_get_state(es, &state));
        usleep(100);
    }
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_ERR(ABT_xstream_cancel(primary), ABT_ERR_INV_XSTREAM);

    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread s1, s2;
    CHECK_OK(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &s1));
    CHECK_OK(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &s2));
    while (atomic_load(&started) < 2)
        usleep(100);

    CHECK_OK(ABT_xstream_cancel(es));
    wait_terminated(es);
    CHECK_EQ(atomic_load(&done), 0);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 2);
    int num = 0;
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 2);
    CHECK_OK(ABT_xstream_free(&es));

    /* Finish the leftovers on the primary ES. */
    for (int i = 0; i < 2; i++) {
        ABT_unit u = ABT_UNIT_NULL;
        CHECK_OK(ABT_pool_pop(pool, &u));
        CHECK(u != ABT_UNIT_NULL);
        CHECK_OK(ABT_pool_push(main_pool, u));
    }
    atomic_store(&release, 1);
    CHECK_OK(ABT_thread_free(&s1));
    CHECK_OK(ABT_thread_free(&s2));
    CHECK_EQ(atomic_load(&done), 2);
    CHECK_OK(ABT_pool_free(&pool));

    /* An idle ES. */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_cancel(es));
    wait_terminated(es);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
