/* ABT_task_get_state given a ULT handle: the documentation lists this as
 * ABT_ERR_INV_TASK (the 1.2 code does not check). The digest calls both
 * defensible and names INV_TASK as the doc-following choice, which this test
 * expects (judgement call, see semantics digest section 12, item 11). */
#include "bb_test.h"

static void body(void *arg)
{
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));

    ABT_thread u;
    CHECK_OK(ABT_thread_create(pool0, body, NULL, ABT_THREAD_ATTR_NULL, &u));
    ABT_task_state st;
    CHECK_ERR(ABT_task_get_state(u, &st), ABT_ERR_INV_TASK);
    CHECK_OK(ABT_thread_join(u));
    CHECK_ERR(ABT_task_get_state(u, &st), ABT_ERR_INV_TASK);
    ABT_thread primary;
    CHECK_OK(ABT_thread_self(&primary));
    CHECK_ERR(ABT_task_get_state(primary, &st), ABT_ERR_INV_TASK);
    CHECK_OK(ABT_thread_free(&u));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
