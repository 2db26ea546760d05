/* A signal or broadcast with nobody waiting is lost: a ULT that waits
 * afterwards stays BLOCKED, and a timedwait afterwards times out. One signal
 * wakes exactly one of two waiters (the other stays BLOCKED until a second
 * signal), and extra signals after the queue emptied are lost too. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex mtx;
static atomic_int woke;
static int ret[2];

static void waiter(void *arg)
{
    long i = (long)arg;
    ABT_mutex_lock(mtx);
    ret[i] = ABT_cond_wait(cond, mtx);
    ABT_mutex_unlock(mtx);
    atomic_fetch_add(&woke, 1);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        usleep(100);
    }
}

static void settle(void)
{
    for (int i = 0; i < 20; i++) {
        ABT_thread_yield();
        usleep(500);
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&mtx));

    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_cond_broadcast(cond));

    /* A timed wait after those signals times out. */
    struct timespec soon = bb_test_realtime_in_ms(30);
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_ERR(ABT_cond_timedwait(cond, mtx, &soon), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(mtx));

    /* A ULT waiting afterwards is not woken by them. */
    ABT_thread a, b;
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)0, ABT_THREAD_ATTR_NULL, &a));
    wait_blocked(a);
    settle();
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(a, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(atomic_load(&woke), 0);

    /* Two waiters, one signal: one wakes. */
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)1, ABT_THREAD_ATTR_NULL, &b));
    wait_blocked(b);
    CHECK_OK(ABT_cond_signal(cond));
    while (atomic_load(&woke) < 1)
        usleep(100);
    settle();
    CHECK_EQ(atomic_load(&woke), 1);
    CHECK_OK(ABT_thread_get_state(b, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED); /* a was older */
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_EQ(atomic_load(&woke), 2);
    CHECK_EQ(ret[0], ABT_SUCCESS);
    CHECK_EQ(ret[1], ABT_SUCCESS);

    /* Queue empty again: a further signal is lost as well. */
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)0, ABT_THREAD_ATTR_NULL, &a));
    wait_blocked(a);
    settle();
    CHECK_EQ(atomic_load(&woke), 2);
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_EQ(atomic_load(&woke), 3);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
