/* Every ABT_self_* routine called from an external pthread (not an ES) on an
 * initialized runtime returns ABT_ERR_INV_XSTREAM; the 1.x routines that
 * pre-set their output leave the "none" value (EXT type, FALSE, -1, NULL).
 * The deprecated ABT_thread_self / self_id and ABT_xstream_self do the same. */
#include <pthread.h>
#include "bb_test.h"

static ABT_thread some_ult;

static void *ext_fn(void *arg)
{
    (void)arg;
    ABT_xstream es;
    int rank;
    ABT_thread t;
    ABT_unit_id id;
    CHECK_ERR(ABT_self_get_xstream(&es), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_xstream_rank(&rank), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_thread(&t), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_thread_id(&id), ABT_ERR_INV_XSTREAM);
    ABT_unit_type type = ABT_UNIT_TYPE_THREAD;
    CHECK_ERR(ABT_self_get_type(&type), ABT_ERR_INV_XSTREAM);
    CHECK_EQ(type, ABT_UNIT_TYPE_EXT);
    ABT_bool b = ABT_TRUE;
    CHECK_ERR(ABT_self_is_primary(&b), ABT_ERR_INV_XSTREAM);
    CHECK_EQ(b, ABT_FALSE);
    b = ABT_TRUE;
    CHECK_ERR(ABT_self_on_primary_xstream(&b), ABT_ERR_INV_XSTREAM);
    CHECK_EQ(b, ABT_FALSE);
    CHECK_ERR(ABT_self_is_unnamed(&b), ABT_ERR_INV_XSTREAM);
    ABT_pool pool;
    CHECK_ERR(ABT_self_get_last_pool(&pool), ABT_ERR_INV_XSTREAM);
    int pool_id = 5;
    CHECK_ERR(ABT_self_get_last_pool_id(&pool_id), ABT_ERR_INV_XSTREAM);
    CHECK_EQ(pool_id, -1);
    ABT_unit unit;
    CHECK_ERR(ABT_self_get_unit(&unit), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_yield(), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_yield_to(some_ult), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_resume_yield_to(some_ult), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_suspend(), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_suspend_to(some_ult), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_resume_suspend_to(some_ult), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_exit(), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_exit_to(some_ult), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_resume_exit_to(some_ult), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_schedule(some_ult, ABT_POOL_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_set_arg(NULL), ABT_ERR_INV_XSTREAM);
    void *a = (void *)0x10;
    CHECK_ERR(ABT_self_get_arg(&a), ABT_ERR_INV_XSTREAM);
    CHECK(a == NULL);
    void (*f)(void *);
    CHECK_ERR(ABT_self_get_thread_func(&f), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_set_associated_pool(ABT_POOL_NULL), ABT_ERR_INV_XSTREAM);

    t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_self(&t), ABT_ERR_INV_XSTREAM);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_ERR(ABT_thread_self_id(&id), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_self(&es), ABT_ERR_INV_XSTREAM);
    return NULL;
}

static void noop(void *arg)
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
    /* A READY ULT that no external call may touch. */
    CHECK_OK(ABT_thread_create(pool0, noop, NULL, ABT_THREAD_ATTR_NULL, &some_ult));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(some_ult, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_READY);
    CHECK_OK(ABT_thread_free(&some_ult));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
