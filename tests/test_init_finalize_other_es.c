/* The outermost ABT_finalize from a ULT or a tasklet running on a secondary
 * ES returns ABT_ERR_INV_XSTREAM and leaves the runtime up. */
#include "bb_test.h"

static int ult_ret = -1, task_ret = -1;

static void ult_fn(void *arg)
{
    (void)arg;
    ult_ret = ABT_finalize();
}

static void task_fn(void *arg)
{
    (void)arg;
    task_ret = ABT_finalize();
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ult_ret, ABT_ERR_INV_XSTREAM);
    CHECK_OK(ABT_initialized());

    ABT_task k;
    CHECK_OK(ABT_task_create(pool, task_fn, NULL, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(task_ret, ABT_ERR_INV_XSTREAM);
    CHECK_OK(ABT_initialized());

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
