/* ABT_xstream_exit refused callers: the primary ULT and other ULTs on the
 * primary ES (ABT_ERR_INV_XSTREAM), tasklets on any ES (ABT_ERR_INV_THREAD),
 * external pthreads (ABT_ERR_INV_XSTREAM). A refused call returns and the ES
 * keeps running. */
#include "bb_test.h"
#include <pthread.h>

static int ult_primary_ret = -1, task_primary_ret = -1, task_secondary_ret = -1,
           ext_ret = -1;

static void ult_fn(void *arg)
{
    (void)arg;
    ult_primary_ret = ABT_xstream_exit();
}

static void task_fn(void *arg)
{
    *(int *)arg = ABT_xstream_exit();
}

static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_xstream_exit();
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    CHECK_ERR(ABT_xstream_exit(), ABT_ERR_INV_XSTREAM);

    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ult_primary_ret, ABT_ERR_INV_XSTREAM);

    ABT_task k;
    CHECK_OK(ABT_task_create(main_pool, task_fn, &task_primary_ret, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(task_primary_ret, ABT_ERR_INV_THREAD);

    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_task_create(pool, task_fn, &task_secondary_ret, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(task_secondary_ret, ABT_ERR_INV_THREAD);
    usleep(2000);
    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(es, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);

    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_fn, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
