/* ABT_thread_cancel: a ULT cancelled while READY never runs its function and
 * ends TERMINATED (join returns); a ULT cancelled while it sits in the pool
 * after a yield never resumes past the yield. Cancelling NULL or the primary
 * ULT is ABT_ERR_INV_THREAD. */
#include "bb_test.h"

static int ran;
static int stage;

static void never(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
}

static void two_stage(void *arg)
{
    (void)arg;
    stage = 1;
    ABT_thread_yield();
    stage = 2;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    CHECK_ERR(ABT_thread_cancel(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_cancel(ABT_TASK_NULL), ABT_ERR_INV_THREAD);
    ABT_thread primary;
    CHECK_OK(ABT_thread_self(&primary));
    CHECK_ERR(ABT_thread_cancel(primary), ABT_ERR_INV_THREAD);

    /* READY in the primary pool: nobody can pop it before we block. */
    ABT_thread t[8];
    for (int i = 0; i < 8; i++)
        CHECK_OK(ABT_thread_create(pool0, never, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < 8; i++)
        CHECK_OK(ABT_thread_cancel(t[i]));
    for (int i = 0; i < 8; i++) {
        CHECK_OK(ABT_thread_join(t[i]));
        ABT_thread_state st;
        CHECK_OK(ABT_thread_get_state(t[i], &st));
        CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
        CHECK_OK(ABT_thread_free(&t[i]));
    }
    CHECK_EQ(ran, 0);

    /* Cancelled while it waits in the pool after a yield. The primary ULT
     * yields once: the ULT runs stage 1 and yields back behind us. */
    ABT_thread ts;
    CHECK_OK(ABT_thread_create(pool0, two_stage, NULL, ABT_THREAD_ATTR_NULL, &ts));
    CHECK_OK(ABT_thread_yield());
    CHECK_EQ(stage, 1);
    CHECK_OK(ABT_thread_cancel(ts));
    CHECK_OK(ABT_thread_free(&ts));
    CHECK_EQ(stage, 1);

    /* Control: the same function does run when nobody cancels it. */
    ABT_thread ctl;
    CHECK_OK(ABT_thread_create(pool1, never, NULL, ABT_THREAD_ATTR_NULL, &ctl));
    CHECK_OK(ABT_thread_free(&ctl));
    CHECK_EQ(ran, 1);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
