/* Every ABT_thread_* routine returns ABT_ERR_UNINITIALIZED before ABT_init
 * and after the last ABT_finalize (bobbin checks initialization first, before
 * handle checks). ABT_thread_equal is the exception: it needs no runtime.
 * Creation and ABT_thread_self clear their output handle first. */
#include "bb_test.h"

static void body(void *arg)
{
    (void)arg;
}

static void cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
}

static void check_all(void)
{
    ABT_thread t = (ABT_thread)(intptr_t)0x10;
    ABT_thread null_t = ABT_THREAD_NULL;
    ABT_pool fake_pool = (ABT_pool)(intptr_t)0x10;
    ABT_xstream fake_es = (ABT_xstream)(intptr_t)0x10;

    CHECK_ERR(ABT_thread_create(fake_pool, body, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_THREAD_NULL);
    t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_create(ABT_POOL_NULL, body, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_THREAD_NULL);
    t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_create_on_xstream(fake_es, body, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_ERR(ABT_thread_create_to(ABT_POOL_NULL, body, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_UNINITIALIZED);
    void (*funcs[1])(void *) = {body};
    ABT_pool pools[1] = {ABT_POOL_NULL};
    ABT_thread list[1] = {ABT_THREAD_NULL};
    CHECK_ERR(ABT_thread_create_many(1, pools, funcs, NULL, ABT_THREAD_ATTR_NULL, list),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_revive(ABT_POOL_NULL, body, NULL, &null_t), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_revive_to(ABT_POOL_NULL, body, NULL, &null_t), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_join(ABT_THREAD_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_join_many(1, list), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_free(&null_t), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_free_many(1, list), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_exit(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_cancel(ABT_THREAD_NULL), ABT_ERR_UNINITIALIZED);
    t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_self(&t), ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_THREAD_NULL);
    ABT_unit_id id;
    CHECK_ERR(ABT_thread_self_id(&id), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_get_id(ABT_THREAD_NULL, &id), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_yield(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_yield_to(ABT_THREAD_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_resume(ABT_THREAD_NULL), ABT_ERR_UNINITIALIZED);
    ABT_thread_state st;
    CHECK_ERR(ABT_thread_get_state(ABT_THREAD_NULL, &st), ABT_ERR_UNINITIALIZED);
    ABT_xstream es;
    CHECK_ERR(ABT_thread_get_last_xstream(ABT_THREAD_NULL, &es), ABT_ERR_UNINITIALIZED);
    ABT_pool pool;
    CHECK_ERR(ABT_thread_get_last_pool(ABT_THREAD_NULL, &pool), ABT_ERR_UNINITIALIZED);
    int pool_id;
    CHECK_ERR(ABT_thread_get_last_pool_id(ABT_THREAD_NULL, &pool_id), ABT_ERR_UNINITIALIZED);
    ABT_unit unit;
    CHECK_ERR(ABT_thread_get_unit(ABT_THREAD_NULL, &unit), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_set_associated_pool(ABT_THREAD_NULL, ABT_POOL_NULL),
              ABT_ERR_UNINITIALIZED);
    size_t size;
    void *addr;
    CHECK_ERR(ABT_thread_get_stacksize(ABT_THREAD_NULL, &size), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_get_stack(ABT_THREAD_NULL, &addr, &size), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_get_arg(ABT_THREAD_NULL, &addr), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_set_arg(ABT_THREAD_NULL, NULL), ABT_ERR_UNINITIALIZED);
    void (*f)(void *);
    CHECK_ERR(ABT_thread_get_thread_func(ABT_THREAD_NULL, &f), ABT_ERR_UNINITIALIZED);
    ABT_bool b;
    CHECK_ERR(ABT_thread_is_primary(ABT_THREAD_NULL, &b), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_is_unnamed(ABT_THREAD_NULL, &b), ABT_ERR_UNINITIALIZED);
    ABT_thread_attr attr;
    CHECK_ERR(ABT_thread_get_attr(ABT_THREAD_NULL, &attr), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_set_migratable(ABT_THREAD_NULL, ABT_TRUE), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_is_migratable(ABT_THREAD_NULL, &b), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_set_callback(ABT_THREAD_NULL, cb, NULL), ABT_ERR_UNINITIALIZED);

    /* The exception: equal works without a runtime. */
    b = ABT_FALSE;
    CHECK_OK(ABT_thread_equal(ABT_THREAD_NULL, ABT_TASK_NULL, &b));
    CHECK_EQ(b, ABT_TRUE);
    b = ABT_TRUE;
    CHECK_OK(ABT_thread_equal((ABT_thread)(intptr_t)0x10, (ABT_thread)(intptr_t)0x20, &b));
    CHECK_EQ(b, ABT_FALSE);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    check_all();
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    check_all();
    BB_TEST_END();
}
