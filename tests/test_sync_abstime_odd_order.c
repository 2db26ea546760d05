/* Deadlines written with tv_nsec outside [0, 1e9), or so large or small that
 * tv_sec + tv_nsec / 1e9 overflows time_t, are read as Argobots reads them
 * (tv_sec + 1e-9 * tv_nsec), checked without timing bounds:
 *
 * - order: a ULT waits on an eventual until T + 0.5 s, written as
 *   {sec + 2, nsec - 2e9} (tv_nsec in [-2e9, -1e9)); once it is blocked, a
 *   second ULT waits until T + 1.0 s, written plainly. Both time out, and
 *   the one with the earlier deadline must come back first: one ES, the
 *   alarm thread ends due waits in deadline order, and the pool is FIFO.
 *   (Misreading the negative tv_nsec by one second puts the first deadline
 *   at T + 1.5 s, after the second.)
 * - {TIME_MAX, +2e9} overflows upwards: "for ever". The waiter must still be
 *   waiting when it is signalled (ABT_SUCCESS, not ABT_ERR_COND_TIMEDOUT).
 * - {TIME_MIN, -2e9} overflows downwards: long past. The wait must time out
 *   at once (the watchdog catches a wait for ever). */
#include "bb_test.h"
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

static ABT_eventual ev;
static ABT_mutex mtx;
static ABT_cond cond;
static atomic_int order_n;
static int order_of[2];
static int ret_of[2];
static struct timespec dl[2];

static void timed_waiter(void *arg)
{
    int i = (int)(intptr_t)arg;
    void *v;
    ret_of[i] = ABT_eventual_timedwait(ev, &v, &dl[i]);
    order_of[i] = atomic_fetch_add(&order_n, 1);
}

static int cond_ret = -1;
static atomic_int waiting;
static struct timespec cond_dl;

static void cond_waiter(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    atomic_store(&waiting, 1);
    cond_ret = ABT_cond_timedwait(cond, mtx, &cond_dl);
    ABT_mutex_unlock(mtx);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state s = ABT_THREAD_STATE_READY;
    while (s != ABT_THREAD_STATE_BLOCKED && s != ABT_THREAD_STATE_TERMINATED) {
        ABT_thread_yield();
        ABT_thread_get_state(t, &s);
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    if (sizeof(long) < 8 || sizeof(time_t) < 8) {
        printf("skipped: tv_nsec or time_t cannot hold these values\n");
        return 77;
    }
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool = bb_test_main_pool();
    CHECK_OK(ABT_eventual_create(0, &ev)); /* never set */
    CHECK_OK(ABT_mutex_create(&mtx));
    CHECK_OK(ABT_cond_create(&cond));

    for (int round = 0; round < 3; round++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        long ns = now.tv_nsec + 500000000L; /* T + 0.5 s */
        time_t s = now.tv_sec;
        if (ns >= 1000000000L) {
            ns -= 1000000000L;
            s++;
        }
        if (ns == 0)
            ns = 1;
        dl[0].tv_sec = s + 2;
        dl[0].tv_nsec = ns - 2000000000L;
        dl[1].tv_sec = s;             /* T + 1.0 s */
        dl[1].tv_nsec = ns + 500000000L;
        if (dl[1].tv_nsec >= 1000000000L) {
            dl[1].tv_nsec -= 1000000000L;
            dl[1].tv_sec++;
        }
        atomic_store(&order_n, 0);
        ABT_thread t0, t1;
        CHECK_OK(ABT_thread_create(pool, timed_waiter, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &t0));
        wait_blocked(t0);
        CHECK_OK(ABT_thread_create(pool, timed_waiter, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &t1));
        CHECK_OK(ABT_thread_free(&t0));
        CHECK_OK(ABT_thread_free(&t1));
        CHECK_EQ(ret_of[0], ABT_ERR_COND_TIMEDOUT);
        CHECK_EQ(ret_of[1], ABT_ERR_COND_TIMEDOUT);
        if (order_of[0] != 0)
            fprintf(stderr, "round %d: the deadline {sec + 2, nsec - 2e9} expired after "
                            "the later, plainly written one\n", round);
        CHECK_EQ(order_of[0], 0);
        CHECK_EQ(order_of[1], 1);
    }

    /* Overflow upwards: for ever, so the signal must find the waiter. */
    cond_dl.tv_sec = (time_t)INT64_MAX;
    cond_dl.tv_nsec = 2000000000L;
    atomic_store(&waiting, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, cond_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&waiting))
        ABT_thread_yield();
    ABT_mutex_lock(mtx); /* the waiter has released it: it is queued */
    CHECK_OK(ABT_cond_signal(cond));
    ABT_mutex_unlock(mtx);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(cond_ret, ABT_SUCCESS);

    /* Overflow downwards: long past, so it times out at once. */
    cond_dl.tv_sec = (time_t)INT64_MIN;
    cond_dl.tv_nsec = -2000000000L;
    cond_ret = -1;
    CHECK_OK(ABT_thread_create(pool, cond_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(cond_ret, ABT_ERR_COND_TIMEDOUT);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_eventual_free(&ev));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
