/* Every ABT_self_* routine called from an external pthread (not an ES) on an
 * initialized runtime returns ABT_ERR_INV_XSTREAM; the 1.x routines that
 * pre-set their output leave the "none" value (EXT type, FALSE, -1, NULL).
 * The deprecated ABT_thread_self / self_id and ABT_xstream_self do the same. */
#include "handover_util.h"

static ABT_thread some_ult;

static void *ext_fn(void *arg)
{
    (void)arg;
    check_all_self_routines_fail(ABT_ERR_INV_XSTREAM, some_ult, ABT_POOL_NULL);

    ABT_thread t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_self(&t), ABT_ERR_INV_XSTREAM);
    CHECK(t == ABT_THREAD_NULL);
    ABT_unit_id id;
    CHECK_ERR(ABT_thread_self_id(&id), ABT_ERR_INV_XSTREAM);
    ABT_xstream xstream;
    CHECK_ERR(ABT_xstream_self(&xstream), ABT_ERR_INV_XSTREAM);
    return NULL;
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
