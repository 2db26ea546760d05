/* ABT_task_get_state reports READY before a tasklet runs, RUNNING while it
 * runs (seen from inside and from another thread), TERMINATED afterwards.
 * ABT_thread_get_state on a tasklet reports thread states, never BLOCKED. */
#include "bb_test.h"

static ABT_task me;
static ABT_task_state inside = (ABT_task_state)-1;
static ABT_thread_state inside_thread = (ABT_thread_state)-1;
static int started, release;

static void body(void *arg)
{
    (void)arg;
    ABT_task self = ABT_TASK_NULL;
    ABT_self_get_task(&self);
    ABT_task_get_state(self, &inside);
    ABT_thread_get_state(self, &inside_thread);
    __atomic_store_n(&started, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
        ;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es, self_es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    /* READY: queued on the primary pool, which is idle while we run. */
    ABT_task q;
    CHECK_OK(ABT_task_create(pool0, body, NULL, &q));
    ABT_task_state st = (ABT_task_state)-1;
    CHECK_OK(ABT_task_get_state(q, &st));
    CHECK_EQ(st, ABT_TASK_STATE_READY);
    ABT_thread_state tst = (ABT_thread_state)-1;
    CHECK_OK(ABT_thread_get_state(q, &tst));
    CHECK_EQ(tst, ABT_THREAD_STATE_READY);
    CHECK_OK(ABT_task_cancel(q)); /* it would spin: never let it run */
    CHECK_OK(ABT_task_free(&q));

    /* RUNNING on the secondary ES. */
    CHECK_OK(ABT_task_create(pool1, body, NULL, &me));
    while (!__atomic_load_n(&started, __ATOMIC_ACQUIRE))
        ;
    CHECK_OK(ABT_task_get_state(me, &st));
    CHECK_EQ(st, ABT_TASK_STATE_RUNNING);
    CHECK_OK(ABT_thread_get_state(me, &tst));
    CHECK_EQ(tst, ABT_THREAD_STATE_RUNNING);
    __atomic_store_n(&release, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_task_join(me));
    CHECK_EQ(inside, ABT_TASK_STATE_RUNNING);
    CHECK_EQ(inside_thread, ABT_THREAD_STATE_RUNNING);
    CHECK_OK(ABT_task_get_state(me, &st));
    CHECK_EQ(st, ABT_TASK_STATE_TERMINATED);
    CHECK_OK(ABT_thread_get_state(me, &tst));
    CHECK_EQ(tst, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_task_free(&me));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
