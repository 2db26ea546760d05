/* ABT_EVENTUAL_INITIALIZER gives a not-ready eventual without a buffer: the
 * eventual routines still need ABT_init (ABT_ERR_UNINITIALIZED before);
 * set with nbytes 0 works, nbytes > 0 -> ABT_ERR_INV_EVENTUAL; wait and test
 * give NULL; set twice -> ABT_ERR_EVENTUAL; reset makes it reusable; waiters
 * (a ULT on another ES, an external pthread) are woken. Works for file-scope
 * and stack memory alike; it is never freed. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

static ABT_eventual_memory global_mem = ABT_EVENTUAL_INITIALIZER;
static ABT_eventual ev;
static atomic_int woke, ext_waiting;

static void waiter(void *arg)
{
    (void)arg;
    void *v = (void *)(intptr_t)0x99;
    CHECK_OK(ABT_eventual_wait(ev, &v));
    CHECK(v == NULL);
    atomic_fetch_add(&woke, 1);
}

static void *ext_waiter(void *arg)
{
    (void)arg;
    atomic_store(&ext_waiting, 1);
    void *v = (void *)(intptr_t)0x99;
    CHECK_OK(ABT_eventual_wait(ev, &v));
    CHECK(v == NULL);
    atomic_fetch_add(&woke, 1);
    return NULL;
}

static void exercise(ABT_eventual e, ABT_xstream es1)
{
    ev = e;
    atomic_store(&woke, 0);
    atomic_store(&ext_waiting, 0);
    ABT_bool ready = ABT_TRUE;
    void *v = (void *)(intptr_t)0x99;
    CHECK_OK(ABT_eventual_test(e, &v, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    CHECK(v == (void *)(intptr_t)0x99);
    int x = 5;
    CHECK_ERR(ABT_eventual_set(e, &x, sizeof(x)), ABT_ERR_INV_EVENTUAL);
    CHECK_OK(ABT_eventual_test(e, &v, &ready));
    CHECK_EQ(ready, ABT_FALSE);

    ABT_thread t;
    CHECK_OK(ABT_thread_create_on_xstream(es1, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_waiter, NULL), 0);
    while (!atomic_load(&ext_waiting))
        ABT_thread_yield();
    usleep(10000);
    CHECK_EQ(atomic_load(&woke), 0);

    CHECK_OK(ABT_eventual_set(e, NULL, 0));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(atomic_load(&woke), 2);

    CHECK_ERR(ABT_eventual_set(e, NULL, 0), ABT_ERR_EVENTUAL);
    v = (void *)(intptr_t)0x99;
    CHECK_OK(ABT_eventual_wait(e, &v));
    CHECK(v == NULL);
    v = (void *)(intptr_t)0x99;
    CHECK_OK(ABT_eventual_test(e, &v, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK(v == NULL);

    CHECK_OK(ABT_eventual_reset(e));
    CHECK_OK(ABT_eventual_test(e, NULL, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    CHECK_OK(ABT_eventual_set(e, NULL, 0));
    CHECK_OK(ABT_eventual_wait(e, NULL));
    CHECK_OK(ABT_eventual_reset(e)); /* leave it reusable */
}

int main(void)
{
    BB_TEST_BEGIN(20);
    ABT_eventual g = ABT_EVENTUAL_MEMORY_GET_HANDLE(&global_mem);
    ABT_bool ready = ABT_TRUE;
    CHECK_ERR(ABT_eventual_set(g, NULL, 0), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_test(g, NULL, &ready), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_reset(g), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_eventual_wait(g, NULL), ABT_ERR_UNINITIALIZED);

    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));

    exercise(g, es1);
    exercise(g, es1); /* again, after reset */
    ABT_eventual_memory local_mem = ABT_EVENTUAL_INITIALIZER;
    exercise(ABT_EVENTUAL_MEMORY_GET_HANDLE(&local_mem), es1);

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_eventual_test(g, NULL, &ready), ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
