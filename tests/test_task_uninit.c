/* ABT_task_* before ABT_init and after the last ABT_finalize return
 * ABT_ERR_UNINITIALIZED (not INV_TASK: initialization is checked first);
 * creation and ABT_task_self clear the output handle. ABT_task_equal needs
 * no runtime. */
#include "bb_test.h"

static void body(void *arg)
{
    (void)arg;
}

static void check_all(void)
{
    ABT_task t = (ABT_task)(intptr_t)0x10;
    ABT_task null_t = ABT_TASK_NULL;
    CHECK_ERR(ABT_task_create((ABT_pool)(intptr_t)0x10, body, NULL, &t), ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_TASK_NULL);
    t = (ABT_task)(intptr_t)0x10;
    CHECK_ERR(ABT_task_create(ABT_POOL_NULL, body, NULL, &t), ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_TASK_NULL);
    t = (ABT_task)(intptr_t)0x10;
    CHECK_ERR(ABT_task_create_on_xstream((ABT_xstream)(intptr_t)0x10, body, NULL, &t),
              ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_TASK_NULL);
    CHECK_ERR(ABT_task_revive(ABT_POOL_NULL, body, NULL, &null_t), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_task_free(&null_t), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_task_join(ABT_TASK_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_task_cancel(ABT_TASK_NULL), ABT_ERR_UNINITIALIZED);
    t = (ABT_task)(intptr_t)0x10;
    CHECK_ERR(ABT_task_self(&t), ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_TASK_NULL);
    uint64_t id;
    CHECK_ERR(ABT_task_self_id(&id), ABT_ERR_UNINITIALIZED);
    ABT_xstream es;
    CHECK_ERR(ABT_task_get_xstream(ABT_TASK_NULL, &es), ABT_ERR_UNINITIALIZED);
    ABT_task_state st;
    CHECK_ERR(ABT_task_get_state(ABT_TASK_NULL, &st), ABT_ERR_UNINITIALIZED);
    ABT_pool pool;
    CHECK_ERR(ABT_task_get_last_pool(ABT_TASK_NULL, &pool), ABT_ERR_UNINITIALIZED);
    int pool_id;
    CHECK_ERR(ABT_task_get_last_pool_id(ABT_TASK_NULL, &pool_id), ABT_ERR_UNINITIALIZED);
    ABT_bool b;
    CHECK_ERR(ABT_task_set_migratable(ABT_TASK_NULL, ABT_TRUE), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_task_is_migratable(ABT_TASK_NULL, &b), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_task_get_id(ABT_TASK_NULL, &id), ABT_ERR_UNINITIALIZED);
    void *arg;
    CHECK_ERR(ABT_task_get_arg(ABT_TASK_NULL, &arg), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_task_is_unnamed(ABT_TASK_NULL, &b), ABT_ERR_UNINITIALIZED);

    b = ABT_FALSE;
    CHECK_OK(ABT_task_equal(ABT_TASK_NULL, ABT_THREAD_NULL, &b));
    CHECK_EQ(b, ABT_TRUE);
    b = ABT_TRUE;
    CHECK_OK(ABT_task_equal((ABT_task)(intptr_t)0x10, ABT_TASK_NULL, &b));
    CHECK_EQ(b, ABT_FALSE);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    check_all();
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_finalize());
    check_all();
    BB_TEST_END();
}
