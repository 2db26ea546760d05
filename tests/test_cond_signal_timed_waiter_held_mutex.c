/* A timed waiter signalled while the signaller holds the mutex, which it then
 * keeps past the waiter's deadline: the wait was ended by the signal, so it
 * returns ABT_SUCCESS (with the mutex held again) once the mutex is free,
 * whatever the deadline did meanwhile. The waiter must not be moved into the
 * mutex's queue as untimed waiters are (cond.c, wait morphing): its deadline
 * would then end a wait that is no longer in the condition's queue. Rounds
 * with the waiter on the caller's ES and on another ES, with a plain and a
 * recursive mutex. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex mtx;
static atomic_int queued;
static int wret, relock;
static struct timespec deadline;

static void waiter(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    deadline = bb_test_realtime_in_ms(30);
    atomic_store(&queued, 1);
    wret = ABT_cond_timedwait(cond, mtx, &deadline);
    relock = ABT_mutex_trylock(mtx); /* held: LOCKED (plain) or SUCCESS (recursive) */
    if (relock == ABT_SUCCESS)
        ABT_mutex_unlock(mtx);
    ABT_mutex_unlock(mtx);
}

static double since(const struct timespec *t)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (double)(now.tv_sec - t->tv_sec) + 1e-9 * (double)(now.tv_nsec - t->tv_nsec);
}

int main(void)
{
    BB_TEST_BEGIN(40);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pools[2];
    pools[0] = bb_test_main_pool();
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));
    CHECK_OK(ABT_cond_create(&cond));
    for (int round = 0; round < 8; round++) {
        int recursive = round & 1;
        ABT_mutex_attr attr;
        CHECK_OK(ABT_mutex_attr_create(&attr));
        CHECK_OK(ABT_mutex_attr_set_recursive(attr, recursive ? ABT_TRUE : ABT_FALSE));
        CHECK_OK(ABT_mutex_create_with_attr(attr, &mtx));
        CHECK_OK(ABT_mutex_attr_free(&attr));
        atomic_store(&queued, 0);
        wret = relock = -1;
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pools[(round >> 1) & 1], waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
        while (!atomic_load(&queued))
            ABT_thread_yield();
        CHECK_OK(ABT_mutex_lock(mtx)); /* the waiter is queued on the condition */
        CHECK_OK(ABT_cond_signal(cond));
        /* Hold the mutex well past the deadline. */
        while (since(&deadline) < 0.3)
            ABT_thread_yield();
        CHECK_OK(ABT_mutex_unlock(mtx));
        CHECK_OK(ABT_thread_free(&t));
        if (wret != ABT_SUCCESS)
            fprintf(stderr, "round %d: a signalled timed wait returned %d\n", round, wret);
        CHECK_EQ(wret, ABT_SUCCESS);
        CHECK_EQ(relock, recursive ? ABT_SUCCESS : ABT_ERR_MUTEX_LOCKED);
        CHECK_OK(ABT_mutex_free(&mtx));
    }
    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
