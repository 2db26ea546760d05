/* A condition variable forgets its waiters' mutex once its queue empties,
 * however it empties: a signal to the last waiter, a broadcast, or the last
 * timed waiter timing out. The program may then free that mutex and go on
 * using the condition (signal and broadcast with nobody waiting, then waits
 * with another mutex): the condition must not touch the freed mutex (under
 * AddressSanitizer or valgrind a read of it fails the test). */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex cur;
static atomic_int queued;
static int wret;
static int timed;

static void waiter(void *arg)
{
    (void)arg;
    ABT_mutex_lock(cur);
    atomic_store(&queued, 1);
    if (timed) {
        struct timespec ts = bb_test_realtime_in_ms(20);
        wret = ABT_cond_timedwait(cond, cur, &ts);
    } else {
        wret = ABT_cond_wait(cond, cur);
    }
    ABT_mutex_unlock(cur);
}

/* One waiter on `cur`, then the queue empties by `how`. */
static void one_round(ABT_pool pool, int how)
{
    CHECK_OK(ABT_mutex_create(&cur));
    atomic_store(&queued, 0);
    timed = how == 2;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&queued))
        ABT_thread_yield();
    ABT_mutex_lock(cur); /* the waiter has released it: it is queued */
    ABT_mutex_unlock(cur);
    if (how == 0)
        CHECK_OK(ABT_cond_signal(cond));
    else if (how == 1)
        CHECK_OK(ABT_cond_broadcast(cond));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(wret, how == 2 ? ABT_ERR_COND_TIMEDOUT : ABT_SUCCESS);
    CHECK_OK(ABT_mutex_free(&cur));
    /* Nobody waits: these must not look at the freed mutex. */
    CHECK_OK(ABT_cond_broadcast(cond));
    CHECK_OK(ABT_cond_signal(cond));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool = bb_test_main_pool();
    CHECK_OK(ABT_cond_create(&cond));
    for (int how = 0; how < 3; how++)
        one_round(pool, how);
    /* And the condition still works, with yet another mutex. */
    one_round(pool, 0);
    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
