/* ABT_sched_finish on an ES's main scheduler: the ES runs its pools dry
 * (including work that yields) and then terminates by itself. ABT_sched_exit:
 * the ES terminates although work is left in the pool. NULL: INV_SCHED. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 200

static atomic_int done, release, spinner_started;

static void worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        ABT_thread_yield();
    atomic_fetch_add(&done, 1);
}

static void spinner(void *arg)
{
    (void)arg;
    atomic_store(&spinner_started, 1);
    while (!atomic_load(&release))
        ABT_thread_yield();
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
    CHECK_ERR(ABT_sched_finish(ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_exit(ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    /* finish */
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pool, worker, NULL, ABT_THREAD_ATTR_NULL, NULL));
    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_OK(ABT_sched_finish(s)); /* requested before the ES even starts */
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(s, &es));
    wait_terminated(es);
    CHECK_EQ(atomic_load(&done), N);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));

    /* exit */
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_sched(es, &s));
    ABT_thread sp;
    CHECK_OK(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &sp));
    while (!atomic_load(&spinner_started))
        usleep(100);
    CHECK_OK(ABT_sched_exit(s));
    wait_terminated(es);
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 1);
    CHECK_OK(ABT_xstream_free(&es));
    ABT_unit u;
    CHECK_OK(ABT_pool_pop(pool, &u));
    CHECK_OK(ABT_pool_push(main_pool, u));
    atomic_store(&release, 1);
    CHECK_OK(ABT_thread_free(&sp));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
