/* ABT_future with zero compartments is ready from the start: test reports
 * ready, wait returns at once (main ULT, another ULT, external pthread), set
 * -> ABT_ERR_FUTURE, the callback is never called, and reset leaves it
 * ready. A tasklet's wait is still refused (ABT_ERR_FUTURE). */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_future future;
static atomic_int cb_calls;

static void callback(void **values)
{
    (void)values;
    atomic_fetch_add(&cb_calls, 1);
}

static void ult_fn(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_future_wait(future));
}

static void task_fn(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_future_wait(future), ABT_ERR_FUTURE);
    ABT_bool ready = ABT_FALSE;
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_future_wait(future));
    CHECK_ERR(ABT_future_set(future, NULL), ABT_ERR_FUTURE);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    CHECK_OK(ABT_future_create(0, callback, &future));
    ABT_bool ready = ABT_FALSE;
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_OK(ABT_future_wait(future));
    CHECK_ERR(ABT_future_set(future, NULL), ABT_ERR_FUTURE);

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    ABT_task task;
    CHECK_OK(ABT_task_create(pool, task_fn, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);

    CHECK_OK(ABT_future_reset(future));
    ready = ABT_FALSE;
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_OK(ABT_future_wait(future));
    CHECK_ERR(ABT_future_set(future, NULL), ABT_ERR_FUTURE);
    CHECK_EQ(atomic_load(&cb_calls), 0);
    CHECK_OK(ABT_future_free(&future));

    /* Without a callback too. */
    CHECK_OK(ABT_future_create(0, NULL, &future));
    CHECK_OK(ABT_future_wait(future));
    CHECK_ERR(ABT_future_set(future, NULL), ABT_ERR_FUTURE);
    CHECK_OK(ABT_future_free(&future));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
