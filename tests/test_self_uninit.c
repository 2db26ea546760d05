/* ABT_self_* before ABT_init and after the last ABT_finalize return
 * ABT_ERR_UNINITIALIZED; the 1.x routines that pre-set their output
 * (get_type -> EXT, is_primary/on_primary -> FALSE, get_last_pool_id -> -1,
 * get_arg -> NULL) leave that value behind. */
#include "bb_test.h"

static void check_all(void)
{
    ABT_xstream es;
    int rank;
    ABT_thread t;
    ABT_unit_id id;
    CHECK_ERR(ABT_self_get_xstream(&es), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_get_xstream_rank(&rank), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_get_thread(&t), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_get_thread_id(&id), ABT_ERR_UNINITIALIZED);
    ABT_unit_type type = ABT_UNIT_TYPE_THREAD;
    CHECK_ERR(ABT_self_get_type(&type), ABT_ERR_UNINITIALIZED);
    CHECK_EQ(type, ABT_UNIT_TYPE_EXT);
    ABT_bool b = ABT_TRUE;
    CHECK_ERR(ABT_self_is_primary(&b), ABT_ERR_UNINITIALIZED);
    CHECK_EQ(b, ABT_FALSE);
    b = ABT_TRUE;
    CHECK_ERR(ABT_self_on_primary_xstream(&b), ABT_ERR_UNINITIALIZED);
    CHECK_EQ(b, ABT_FALSE);
    CHECK_ERR(ABT_self_is_unnamed(&b), ABT_ERR_UNINITIALIZED);
    ABT_pool pool;
    CHECK_ERR(ABT_self_get_last_pool(&pool), ABT_ERR_UNINITIALIZED);
    int pool_id = 7;
    CHECK_ERR(ABT_self_get_last_pool_id(&pool_id), ABT_ERR_UNINITIALIZED);
    CHECK_EQ(pool_id, -1);
    CHECK_ERR(ABT_self_set_associated_pool((ABT_pool)(intptr_t)0x10), ABT_ERR_UNINITIALIZED);
    ABT_unit unit;
    CHECK_ERR(ABT_self_get_unit(&unit), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_yield(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_yield_to((ABT_thread)(intptr_t)0x10), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_resume_yield_to((ABT_thread)(intptr_t)0x10), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_suspend(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_suspend_to((ABT_thread)(intptr_t)0x10), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_resume_suspend_to((ABT_thread)(intptr_t)0x10), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_exit(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_exit_to((ABT_thread)(intptr_t)0x10), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_resume_exit_to((ABT_thread)(intptr_t)0x10), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_schedule((ABT_thread)(intptr_t)0x10, ABT_POOL_NULL),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_set_arg(NULL), ABT_ERR_UNINITIALIZED);
    void *arg = (void *)0x10;
    CHECK_ERR(ABT_self_get_arg(&arg), ABT_ERR_UNINITIALIZED);
    CHECK(arg == NULL);
    void (*f)(void *);
    CHECK_ERR(ABT_self_get_thread_func(&f), ABT_ERR_UNINITIALIZED);
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
