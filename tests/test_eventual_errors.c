/* ABT_eventual_* error codes: before ABT_init and after ABT_finalize ->
 * ABT_ERR_UNINITIALIZED (create leaves *out alone); create with a NULL
 * out-pointer or nbytes < 0 -> ABT_ERR_INV_ARG (*out untouched); NULL
 * handles -> ABT_ERR_INV_EVENTUAL; set with nbytes < 0 -> ABT_ERR_INV_ARG,
 * with nbytes > capacity -> ABT_ERR_INV_EVENTUAL (neither makes it ready);
 * set twice without reset -> ABT_ERR_EVENTUAL (nothing copied; the argument
 * checks come first: handle, then nbytes, then readiness); test with
 * NULL is_ready and timedwait with NULL abstime -> ABT_ERR_INV_ARG; a
 * tasklet's wait/timedwait -> ABT_ERR_EVENTUAL (after the handle check,
 * ready or not) while its set/test/reset work; free while a unit waits ->
 * ABT_ERR_EVENTUAL with the handle unchanged. */
#include "bb_test.h"
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

static ABT_eventual ev;
static atomic_int woke;

static void check_uninit(void)
{
    ABT_eventual e = (ABT_eventual)(intptr_t)0x10;
    CHECK_ERR(ABT_eventual_create(4, &e), ABT_ERR_UNINITIALIZED);
    CHECK(e == (ABT_eventual)(intptr_t)0x10);
    void *v = (void *)(intptr_t)0x20;
    ABT_bool ready = ABT_TRUE;
    struct timespec ts = bb_test_realtime_in_ms(1000);
    int x = 0;
    CHECK_ERR(ABT_eventual_wait(e, &v), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_timedwait(e, &v, &ts), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_test(e, &v, &ready), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_set(e, &x, sizeof(x)), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_reset(e), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_wait(ABT_EVENTUAL_NULL, &v), ABT_ERR_UNINITIALIZED);
    CHECK(v == (void *)(intptr_t)0x20);
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_ERR(ABT_eventual_free(&e), ABT_ERR_UNINITIALIZED);
    CHECK(e == (ABT_eventual)(intptr_t)0x10);
}

static void tasklet_fn(void *arg)
{
    (void)arg;
    void *v = NULL;
    struct timespec ts = bb_test_realtime_in_ms(1000);
    CHECK_ERR(ABT_eventual_wait(ABT_EVENTUAL_NULL, &v), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_timedwait(ABT_EVENTUAL_NULL, &v, &ts), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_wait(ev, &v), ABT_ERR_EVENTUAL);
    CHECK_ERR(ABT_eventual_timedwait(ev, &v, &ts), ABT_ERR_EVENTUAL);
    ABT_bool ready = ABT_TRUE;
    CHECK_OK(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    int x = 7;
    CHECK_OK(ABT_eventual_set(ev, &x, sizeof(x)));
    CHECK_ERR(ABT_eventual_wait(ev, &v), ABT_ERR_EVENTUAL); /* ready: still refused */
    CHECK_ERR(ABT_eventual_timedwait(ev, &v, &ts), ABT_ERR_EVENTUAL);
    CHECK_OK(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK_EQ(*(int *)v, 7);
    CHECK_OK(ABT_eventual_reset(ev));
}

static void waiter(void *arg)
{
    (void)arg;
    void *v = NULL;
    CHECK_OK(ABT_eventual_wait(ev, &v));
    CHECK(v != NULL);
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

    CHECK_ERR(ABT_eventual_create(4, NULL), ABT_ERR_INV_ARG);
    ABT_eventual e = (ABT_eventual)(intptr_t)0x10;
    CHECK_ERR(ABT_eventual_create(-1, &e), ABT_ERR_INV_ARG);
    CHECK(e == (ABT_eventual)(intptr_t)0x10);
    CHECK_ERR(ABT_eventual_free(NULL), ABT_ERR_INV_ARG);
    e = ABT_EVENTUAL_NULL;
    CHECK_ERR(ABT_eventual_free(&e), ABT_ERR_INV_EVENTUAL);
    void *v = NULL;
    ABT_bool ready = ABT_FALSE;
    struct timespec ts = bb_test_realtime_in_ms(1000);
    int x = 1;
    CHECK_ERR(ABT_eventual_wait(ABT_EVENTUAL_NULL, &v), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_timedwait(ABT_EVENTUAL_NULL, &v, &ts), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_test(ABT_EVENTUAL_NULL, &v, &ready), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_set(ABT_EVENTUAL_NULL, &x, sizeof(x)), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_reset(ABT_EVENTUAL_NULL), ABT_ERR_INV_EVENTUAL);
    CHECK_ERR(ABT_eventual_set(ABT_EVENTUAL_NULL, &x, -1), ABT_ERR_INV_EVENTUAL);

    CHECK_OK(ABT_eventual_create(sizeof(int), &ev));
    CHECK(ev != ABT_EVENTUAL_NULL);
    CHECK_ERR(ABT_eventual_test(ev, &v, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_eventual_timedwait(ev, &v, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_eventual_set(ev, &x, -1), ABT_ERR_INV_ARG);
    long long big = 0;
    CHECK_ERR(ABT_eventual_set(ev, &big, sizeof(int) + 1), ABT_ERR_INV_EVENTUAL);
    CHECK_OK(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ(ready, ABT_FALSE);

    x = 11;
    CHECK_OK(ABT_eventual_set(ev, &x, sizeof(x)));
    int y = 22;
    CHECK_ERR(ABT_eventual_set(ev, &y, sizeof(y)), ABT_ERR_EVENTUAL);
    CHECK_ERR(ABT_eventual_set(ev, NULL, 0), ABT_ERR_EVENTUAL);
    /* The argument checks come before the readiness check. */
    CHECK_ERR(ABT_eventual_set(ev, &y, -1), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_eventual_set(ev, &big, sizeof(int) + 1), ABT_ERR_INV_EVENTUAL);
    CHECK_OK(ABT_eventual_wait(ev, &v));
    CHECK_EQ(*(int *)v, 11);
    CHECK_OK(ABT_eventual_reset(ev));

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
    ABT_eventual saved = ev;
    CHECK_ERR(ABT_eventual_free(&ev), ABT_ERR_EVENTUAL);
    CHECK(ev == saved);
    CHECK_OK(ABT_eventual_set(ev, &x, sizeof(x)));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&woke), 1);
    CHECK_OK(ABT_eventual_free(&ev));
    CHECK(ev == ABT_EVENTUAL_NULL);

    /* Not ready, nobody waiting: may be freed. */
    CHECK_OK(ABT_eventual_create(0, &ev));
    CHECK_OK(ABT_eventual_free(&ev));

    CHECK_OK(ABT_finalize());
    check_uninit();
    BB_TEST_END();
}
