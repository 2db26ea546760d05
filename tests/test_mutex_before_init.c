/* The mutex lock family, ABT_mutex_equal and cond signal/broadcast/wait/
 * timedwait work before ABT_init, from the main thread, on static objects:
 * lock, lock_low, lock_high, trylock (ABT_ERR_MUTEX_LOCKED when a plain
 * mutex is held), spinlock, unlock, unlock_se, unlock_de (ABT_ERR_MUTEX when
 * not locked), recursive counting; cond_signal and cond_broadcast with nobody
 * waiting; cond_timedwait with a past deadline times out holding the mutex
 * again (a recursive one at its nesting depth); cond_wait is woken by another
 * pthread. The
 * routines that need initialization (create, free, get_attr) return
 * ABT_ERR_UNINITIALIZED meanwhile. */
#include "bb_test.h"
#include <pthread.h>
#include <time.h>

static ABT_mutex_memory mem = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory rmem = ABT_RECURSIVE_MUTEX_INITIALIZER;
static ABT_cond_memory cmem = ABT_COND_INITIALIZER;
static int waiting, woken;

static void *signaller(void *arg)
{
    (void)arg;
    ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE(&mem);
    ABT_cond c = ABT_COND_MEMORY_GET_HANDLE(&cmem);
    for (;;) {
        ABT_mutex_lock(m);
        int w = waiting;
        if (w) {
            woken = 1;
            ABT_cond_signal(c);
        }
        ABT_mutex_unlock(m);
        if (w)
            return NULL;
        usleep(500);
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE(&mem);
    ABT_mutex r = ABT_MUTEX_MEMORY_GET_HANDLE(&rmem);
    ABT_cond c = ABT_COND_MEMORY_GET_HANDLE(&cmem);

    CHECK_OK(ABT_mutex_lock(m));
    CHECK_ERR(ABT_mutex_trylock(m), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(m));
    CHECK_ERR(ABT_mutex_unlock(m), ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(m));
    CHECK_OK(ABT_mutex_unlock_se(m));
    CHECK_OK(ABT_mutex_lock_low(m));
    CHECK_OK(ABT_mutex_unlock_de(m));
    CHECK_OK(ABT_mutex_lock_high(m));
    CHECK_OK(ABT_mutex_unlock(m));
    CHECK_OK(ABT_mutex_spinlock(m));
    CHECK_OK(ABT_mutex_unlock(m));

    CHECK_OK(ABT_mutex_lock(r));
    CHECK_OK(ABT_mutex_trylock(r));
    CHECK_OK(ABT_mutex_spinlock(r));
    CHECK_OK(ABT_mutex_unlock(r));
    CHECK_OK(ABT_mutex_unlock(r));
    CHECK_OK(ABT_mutex_unlock(r));
    CHECK_ERR(ABT_mutex_unlock(r), ABT_ERR_MUTEX);

    ABT_bool eq = ABT_FALSE;
    CHECK_OK(ABT_mutex_equal(m, m, &eq));
    CHECK_EQ(eq, ABT_TRUE);
    CHECK_OK(ABT_mutex_equal(m, r, &eq));
    CHECK_EQ(eq, ABT_FALSE);

    /* Routines that need ABT_init. */
    ABT_mutex_attr attr = ABT_MUTEX_ATTR_NULL;
    CHECK_ERR(ABT_mutex_get_attr(m, &attr), ABT_ERR_UNINITIALIZED);
    ABT_cond nc = (ABT_cond)(void *)0x1;
    CHECK_ERR(ABT_cond_create(&nc), ABT_ERR_UNINITIALIZED);
    CHECK(nc == ABT_COND_NULL);

    /* Cond with nobody waiting. */
    CHECK_OK(ABT_cond_signal(c));
    CHECK_OK(ABT_cond_broadcast(c));

    /* A deadline in the past: times out, the mutex is held again. */
    struct timespec past;
    clock_gettime(CLOCK_REALTIME, &past);
    past.tv_sec -= 1;
    CHECK_OK(ABT_mutex_lock(m));
    CHECK_ERR(ABT_cond_timedwait(c, m, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_ERR(ABT_mutex_trylock(m), ABT_ERR_MUTEX_LOCKED); /* held again */
    CHECK_OK(ABT_mutex_unlock(m));
    CHECK_ERR(ABT_mutex_unlock(m), ABT_ERR_MUTEX);
    /* The same with a recursive mutex locked twice: both levels come back. */
    CHECK_OK(ABT_mutex_lock(r));
    CHECK_OK(ABT_mutex_lock(r));
    CHECK_ERR(ABT_cond_timedwait(c, r, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(r));
    CHECK_OK(ABT_mutex_unlock(r));
    CHECK_ERR(ABT_mutex_unlock(r), ABT_ERR_MUTEX);

    /* Plain wait, woken by another pthread. */
    pthread_t pt;
    CHECK_OK(ABT_mutex_lock(m));
    waiting = 1;
    CHECK_EQ(pthread_create(&pt, NULL, signaller, NULL), 0);
    while (!woken)
        CHECK_OK(ABT_cond_wait(c, m));
    CHECK_ERR(ABT_mutex_trylock(m), ABT_ERR_MUTEX_LOCKED); /* held again */
    CHECK_OK(ABT_mutex_unlock(m));
    pthread_join(pt, NULL);

    /* And the same objects keep working once Argobots is up. */
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_lock(m));
    CHECK_ERR(ABT_cond_timedwait(c, m, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(m));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
