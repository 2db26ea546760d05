/* Regression (review finding on set_main_sched): replacing the primary ES's
 * main scheduler with ABT_xstream_set_main_sched_basic before the primary
 * ULT has ever yielded must not drop the units already queued in the old
 * main pool. As with any replacement on a running ES, the old scheduler
 * first runs its pools dry, so the queued work has run by the time the call
 * returns.
 *
 * What used to go wrong: on the primary ES before its first yield the old
 * scheduler had never started; it was retired at once with its automatic
 * pool, the queued units were lost, and joining them hung (watchdog). */
#include "bb_test.h"

#define N 3

static int ran[N + 1];

static void work(void *arg)
{
    ran[(long)arg] = 1;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool old_pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &old_pool));

    ABT_thread t[N];
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(old_pool, work, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
    ABT_task task;
    CHECK_OK(ABT_task_create(old_pool, work, (void *)(long)N, &task));

    /* No yield so far: the old scheduler has not run yet. */
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 0, NULL));
    for (int i = 0; i <= N; i++)
        CHECK_EQ(ran[i], 1); /* drained before the replacement finished */

    ABT_pool new_pool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &new_pool));
    ABT_pool cur = ABT_POOL_NULL;
    CHECK_OK(ABT_self_get_last_pool(&cur));
    CHECK(cur == new_pool);

    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i])); /* used to hang: t[i] was dropped */
    CHECK_OK(ABT_task_free(&task));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
