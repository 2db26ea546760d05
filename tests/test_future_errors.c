/* ABT_future_* error codes: before ABT_init and after ABT_finalize ->
 * ABT_ERR_UNINITIALIZED (create leaves *out alone); NULL out-pointers ->
 * ABT_ERR_INV_ARG; NULL handles -> ABT_ERR_INV_FUTURE; set beyond N ->
 * ABT_ERR_FUTURE; a tasklet's wait -> ABT_ERR_FUTURE (after the handle
 * check, even when ready) while its set and test work; free while a unit
 * waits -> ABT_ERR_FUTURE with the handle unchanged. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

static ABT_future future;
static atomic_int woke;

static void check_uninit(void)
{
    ABT_future f = (ABT_future)(intptr_t)0x10;
    CHECK_ERR(ABT_future_create(2, NULL, &f), ABT_ERR_UNINITIALIZED);
    CHECK(f == (ABT_future)(intptr_t)0x10);
    ABT_bool ready = ABT_TRUE;
    CHECK_ERR(ABT_future_wait(f), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_future_test(f, &ready), ABT_ERR_UNINITIALIZED);
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_ERR(ABT_future_set(f, NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_future_reset(f), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_future_wait(ABT_FUTURE_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_future_free(&f), ABT_ERR_UNINITIALIZED);
    CHECK(f == (ABT_future)(intptr_t)0x10);
}

static void tasklet_fn(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_future_wait(ABT_FUTURE_NULL), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_wait(future), ABT_ERR_FUTURE); /* not ready */
    ABT_bool ready = ABT_TRUE;
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    CHECK_OK(ABT_future_set(future, (void *)(intptr_t)1));
    CHECK_OK(ABT_future_set(future, (void *)(intptr_t)2));
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_ERR(ABT_future_wait(future), ABT_ERR_FUTURE); /* ready: still refused */
    CHECK_ERR(ABT_future_set(future, NULL), ABT_ERR_FUTURE);
    CHECK_OK(ABT_future_reset(future));
}

static void waiter(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_future_wait(future));
    atomic_fetch_add(&woke, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_uninit();
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    CHECK_ERR(ABT_future_create(2, NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_future_free(NULL), ABT_ERR_INV_ARG);
    ABT_future f = ABT_FUTURE_NULL;
    CHECK_ERR(ABT_future_free(&f), ABT_ERR_INV_FUTURE);
    ABT_bool ready = ABT_TRUE;
    CHECK_ERR(ABT_future_wait(ABT_FUTURE_NULL), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_test(ABT_FUTURE_NULL, &ready), ABT_ERR_INV_FUTURE);
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_ERR(ABT_future_set(ABT_FUTURE_NULL, NULL), ABT_ERR_INV_FUTURE);
    CHECK_ERR(ABT_future_reset(ABT_FUTURE_NULL), ABT_ERR_INV_FUTURE);

    CHECK_OK(ABT_future_create(2, NULL, &future));
    CHECK(future != ABT_FUTURE_NULL);
    CHECK_ERR(ABT_future_test(future, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    CHECK_OK(ABT_future_set(future, NULL)); /* NULL is a value like any other */
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_ERR(ABT_future_set(future, NULL), ABT_ERR_FUTURE); /* beyond N */
    CHECK_OK(ABT_future_wait(future));
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_OK(ABT_future_reset(future));
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_FALSE);

    ABT_task task;
    CHECK_OK(ABT_task_create(pool, tasklet_fn, NULL, &task));
    CHECK_OK(ABT_task_free(&task));

    /* Free with a waiter. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    ABT_future saved = future;
    CHECK_ERR(ABT_future_free(&future), ABT_ERR_FUTURE);
    CHECK(future == saved);
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&woke), 1);
    CHECK_OK(ABT_future_free(&future));
    CHECK(future == ABT_FUTURE_NULL);

    /* Not ready, nobody waiting: may be freed. */
    CHECK_OK(ABT_future_create(3, NULL, &future));
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_OK(ABT_future_free(&future));

    CHECK_OK(ABT_finalize());
    check_uninit();
    BB_TEST_END();
}
