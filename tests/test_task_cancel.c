/* ABT_task_cancel: a tasklet cancelled while READY never runs and ends
 * TERMINATED; a NULL handle or the primary ULT gives ABT_ERR_INV_TASK (the
 * wrapper's rewrite of ABT_ERR_INV_THREAD). ABT_thread_cancel also accepts a
 * tasklet. */
#include "bb_test.h"

static int ran;

static void body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));

    CHECK_ERR(ABT_task_cancel(ABT_TASK_NULL), ABT_ERR_INV_TASK);
    ABT_thread primary;
    CHECK_OK(ABT_thread_self(&primary));
    CHECK_ERR(ABT_task_cancel(primary), ABT_ERR_INV_TASK);

    ABT_task a, b, c;
    CHECK_OK(ABT_task_create(pool0, body, NULL, &a));
    CHECK_OK(ABT_task_create(pool0, body, NULL, &b));
    CHECK_OK(ABT_task_create(pool0, body, NULL, &c));
    CHECK_OK(ABT_task_cancel(a));
    CHECK_OK(ABT_thread_cancel(c));
    CHECK_OK(ABT_task_join(a));
    CHECK_OK(ABT_task_join(b));
    CHECK_OK(ABT_task_join(c));
    ABT_task_state st;
    CHECK_OK(ABT_task_get_state(a, &st));
    CHECK_EQ(st, ABT_TASK_STATE_TERMINATED);
    CHECK_OK(ABT_task_get_state(c, &st));
    CHECK_EQ(st, ABT_TASK_STATE_TERMINATED);
    CHECK_EQ(ran, 1); /* only b */
    CHECK_OK(ABT_task_free(&a));
    CHECK_OK(ABT_task_free(&b));
    CHECK_OK(ABT_task_free(&c));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
