/* ABT_future callback: it is called once, by the unit/thread that sets the
 * last compartment (here an external pthread), with the values in set order
 * (not creation or any other order); while it runs, ABT_future_test reports
 * not ready and no waiter (ULTs on two ESs, an external pthread) has woken;
 * every waiter wakes after it returned. The compartments are set by the main
 * ULT, a tasklet, a ULT on another ES and an external thread. Setting beyond
 * N -> ABT_ERR_FUTURE. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define N 4

static ABT_future future;
static int vals[N];
static void *seen[N];
static atomic_int cb_calls, in_cb, release_cb, cb_done, woke, woke_early, ext_waiting;
static pthread_t cb_thread, setter_thread;

static void callback(void **values)
{
    atomic_fetch_add(&cb_calls, 1);
    for (int i = 0; i < N; i++)
        seen[i] = values[i];
    cb_thread = pthread_self();
    atomic_store(&in_cb, 1);
    while (!atomic_load(&release_cb))
        usleep(100);
    atomic_store(&cb_done, 1);
}

static void note_woken(void)
{
    if (!atomic_load(&cb_done))
        atomic_fetch_add(&woke_early, 1);
    atomic_fetch_add(&woke, 1);
}

static void waiter(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_future_wait(future));
    note_woken();
}

static void *ext_waiter(void *arg)
{
    (void)arg;
    atomic_store(&ext_waiting, 1);
    CHECK_OK(ABT_future_wait(future));
    note_woken();
    return NULL;
}

static void set_fn(void *arg)
{
    CHECK_OK(ABT_future_set(future, arg));
}

static void *ext_setter(void *arg)
{
    CHECK_OK(ABT_future_set(future, arg));
    return NULL;
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
}

static void check_not_ready(void)
{
    ABT_bool ready = ABT_TRUE;
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_FALSE);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[1]));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));
    CHECK_OK(ABT_future_create(N, callback, &future));

    /* Waiters. */
    ABT_thread w[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_thread_create(pools[i], waiter, NULL, ABT_THREAD_ATTR_NULL, &w[i]));
        wait_blocked(w[i]);
    }
    pthread_t wth;
    CHECK_EQ(pthread_create(&wth, NULL, ext_waiter, NULL), 0);
    while (!atomic_load(&ext_waiting))
        ABT_thread_yield();
    usleep(10000);

    /* The sets, one after another, in the order 2, 0, 3, 1. */
    CHECK_OK(ABT_future_set(future, &vals[2]));
    check_not_ready();
    ABT_task task;
    CHECK_OK(ABT_task_create(pools[0], set_fn, &vals[0], &task));
    CHECK_OK(ABT_task_free(&task));
    check_not_ready();
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pools[1], set_fn, &vals[3], ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    check_not_ready();
    CHECK_EQ(atomic_load(&cb_calls), 0);
    CHECK_EQ(pthread_create(&setter_thread, NULL, ext_setter, &vals[1]), 0);

    /* While the callback runs. */
    while (!atomic_load(&in_cb))
        ABT_thread_yield();
    check_not_ready();
    usleep(10000);
    for (int i = 0; i < 20; i++)
        ABT_thread_yield();
    CHECK_EQ(atomic_load(&woke), 0);
    check_not_ready();
    for (int i = 0; i < 2; i++) {
        ABT_thread_state st;
        CHECK_OK(ABT_thread_get_state(w[i], &st));
        CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    }
    atomic_store(&release_cb, 1);

    CHECK_EQ(pthread_join(setter_thread, NULL), 0);
    ABT_bool ready = ABT_FALSE;
    CHECK_OK(ABT_future_test(future, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_free(&w[i]));
    CHECK_EQ(pthread_join(wth, NULL), 0);
    CHECK_EQ(atomic_load(&woke), 3);
    CHECK_EQ(atomic_load(&woke_early), 0);
    CHECK_EQ(atomic_load(&cb_calls), 1);
    CHECK(pthread_equal(cb_thread, setter_thread));
    CHECK(seen[0] == &vals[2]);
    CHECK(seen[1] == &vals[0]);
    CHECK(seen[2] == &vals[3]);
    CHECK(seen[3] == &vals[1]);

    CHECK_ERR(ABT_future_set(future, &vals[0]), ABT_ERR_FUTURE);
    CHECK_EQ(atomic_load(&cb_calls), 1);
    CHECK_OK(ABT_future_wait(future));

    CHECK_OK(ABT_future_free(&future));
    CHECK_OK(ABT_xstream_join(es[1]));
    CHECK_OK(ABT_xstream_free(&es[1]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
