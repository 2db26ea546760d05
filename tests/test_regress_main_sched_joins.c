/* The run function of a user-defined main scheduler joins and frees work
 * units that have not finished, and joins and frees another ES. A main
 * scheduler has no parent to switch to and no pool to wait in: it waits
 * holding its ES, as an external thread does (the joinees run on the
 * primary ES meanwhile). Before the fix, each of these crashed: the join
 * counted the scheduler as blocked in its (absent) pool, and the ES join
 * yielded to its (absent) parent. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_pool primary_pool, sched_pool;
static atomic_int done;
static int rets[16];

static void slow(void *arg)
{
    (void)arg;
    for (int i = 0; i < 50; i++)
        ABT_thread_yield();
}

static void joins_from_scheduler(void)
{
    int n = 0;
    ABT_thread t, list[2];
    ABT_task k;
    ABT_xstream es;

    rets[n++] = ABT_thread_create(primary_pool, slow, NULL, ABT_THREAD_ATTR_NULL, &t);
    rets[n++] = ABT_thread_join(t);
    rets[n++] = ABT_thread_free(&t);
    rets[n++] = ABT_thread_create(primary_pool, slow, NULL, ABT_THREAD_ATTR_NULL, &t);
    rets[n++] = ABT_thread_free(&t);
    rets[n++] = ABT_task_create(primary_pool, slow, NULL, &k);
    rets[n++] = ABT_task_free(&k);
    rets[n++] = ABT_thread_create(primary_pool, slow, NULL, ABT_THREAD_ATTR_NULL, &list[0]);
    rets[n++] = ABT_thread_create(primary_pool, slow, NULL, ABT_THREAD_ATTR_NULL, &list[1]);
    rets[n++] = ABT_thread_join_many(2, list);
    rets[n++] = ABT_thread_free_many(2, list);
    rets[n++] = ABT_xstream_create(ABT_SCHED_NULL, &es);
    rets[n++] = ABT_xstream_join(es);
    rets[n++] = ABT_xstream_free(&es);
    rets[n++] = ABT_xstream_create(ABT_SCHED_NULL, &es);
    rets[n++] = ABT_xstream_free(&es);
}

static void run(ABT_sched sched)
{
    joins_from_scheduler();
    atomic_store(&done, 1);
    for (;;) {
        ABT_unit unit;
        if (ABT_pool_pop(sched_pool, &unit) == ABT_SUCCESS && unit != ABT_UNIT_NULL)
            ABT_xstream_run_unit(unit, sched_pool);
        ABT_xstream_check_events(sched);
        ABT_bool stop;
        ABT_sched_has_to_stop(sched, &stop);
        if (stop)
            break;
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &primary_pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &sched_pool));
    ABT_sched_def def = { ABT_SCHED_TYPE_ULT, NULL, run, NULL, NULL };
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &sched_pool, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_OK(ABT_xstream_create(sched, &es));
    while (!atomic_load(&done))
        CHECK_OK(ABT_thread_yield()); /* the joinees run here */
    for (int i = 0; i < 16; i++)
        CHECK_EQ(rets[i], ABT_SUCCESS);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_pool_free(&sched_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
