/* Every ABT_thread_* routine that takes a unit handle refuses
 * ABT_THREAD_NULL and ABT_TASK_NULL with ABT_ERR_INV_THREAD; routines that
 * take a pool refuse ABT_POOL_NULL with ABT_ERR_INV_POOL (checked after the
 * thread handle). */
#include "bb_test.h"

static void cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
}

static void body(void *arg)
{
    (void)arg;
}

static void check_handle(ABT_thread h)
{
    ABT_thread_state st;
    ABT_xstream es;
    ABT_pool pool;
    int id;
    ABT_unit unit;
    size_t size;
    void *p;
    void (*f)(void *);
    ABT_bool b;
    ABT_unit_id uid;
    ABT_thread_attr attr;
    CHECK_ERR(ABT_thread_get_state(h, &st), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_last_xstream(h, &es), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_last_pool(h, &pool), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_last_pool_id(h, &id), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_unit(h, &unit), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_stacksize(h, &size), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_stack(h, &p, &size), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_arg(h, &p), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_arg(h, NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_thread_func(h, &f), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_is_primary(h, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_is_unnamed(h, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_id(h, &uid), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_attr(h, &attr), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_migratable(h, ABT_FALSE), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_is_migratable(h, &b), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_callback(h, cb, NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_associated_pool(h, ABT_POOL_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_join(h), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_cancel(h), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_resume(h), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_yield_to(h), ABT_ERR_INV_THREAD);
    ABT_thread copy = h;
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_revive(ABT_POOL_NULL, body, NULL, &copy), ABT_ERR_INV_THREAD);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    check_handle(ABT_THREAD_NULL);
    check_handle(ABT_TASK_NULL);

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool0, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_thread_set_associated_pool(t, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_OK(ABT_thread_join(t));
    CHECK_ERR(ABT_thread_revive(ABT_POOL_NULL, body, NULL, &t), ABT_ERR_INV_POOL);
    CHECK_OK(ABT_thread_free(&t));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
