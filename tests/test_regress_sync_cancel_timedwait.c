/* Regression (sync review): a ULT blocked in ABT_cond_timedwait or
 * ABT_eventual_timedwait (deadline ~300 ms ahead) that is cancelled with
 * ABT_thread_cancel and then signalled (or set) must leave its wait cleanly:
 * bobbin finishes the wait first (the wait returns ABT_SUCCESS), so its
 * deadline is no longer armed on its stack. The program then frees the ULT
 * and the cond/eventual, creates and runs other ULTs (which reuse the freed
 * stack and scribble over it), waits past the old deadline, and
 * ABT_finalize must return (a stale alarm used to fire on the reused stack
 * and hang or crash; the watchdog turns a hang into a failure). Checked with
 * the waiter in the primary ES's pool and in a second ES's pool. A cancelled
 * waiter that nobody signals times out at its deadline
 * (ABT_ERR_COND_TIMEDOUT) and can be freed after that. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

#define DEADLINE_MS 300
#define NOT_RETURNED (-12345)

enum kind { COND, EVENTUAL };

static ABT_mutex mtx;
static ABT_cond cond;
static ABT_eventual ev;
static struct timespec deadline;
static atomic_int wait_ret = NOT_RETURNED;

static double seconds(struct timespec ts)
{
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void cond_waiter(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    atomic_store(&wait_ret, ABT_cond_timedwait(cond, mtx, &deadline));
    ABT_mutex_unlock(mtx);
}

static void eventual_waiter(void *arg)
{
    (void)arg;
    void *v = NULL;
    atomic_store(&wait_ret, ABT_eventual_timedwait(ev, &v, &deadline));
}

/* Runs on a stack the waiter may have used: overwrite what is there. */
static void scribble(void *arg)
{
    (void)arg;
    volatile char buf[6000];
    memset((char *)buf, 0xff, sizeof(buf));
    ABT_thread_yield();
    memset((char *)buf, 0xa5, sizeof(buf));
}

/* 1 once `t` waits; 0 if it has already ended (timed out). */
static int wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (;;) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_BLOCKED || st == ABT_THREAD_STATE_TERMINATED)
            break;
        ABT_thread_yield();
        usleep(50);
    }
    return st == ABT_THREAD_STATE_BLOCKED;
}

static void run_case(enum kind kind, ABT_pool pool, int signalled, const char *what)
{
    printf("%s\n", what);
    atomic_store(&wait_ret, NOT_RETURNED);
    if (kind == COND)
        CHECK_OK(ABT_cond_create(&cond));
    else
        CHECK_OK(ABT_eventual_create(0, &ev));

    ABT_thread t;
    for (long ms = DEADLINE_MS;; ms *= 4) {
        deadline = bb_test_realtime_in_ms(ms);
        CHECK_OK(ABT_thread_create(pool, kind == COND ? cond_waiter : eventual_waiter, NULL,
                                   ABT_THREAD_ATTR_NULL, &t));
        if (wait_blocked(t)) /* in the timed wait, its deadline armed */
            break;
        /* It timed out before this thread saw it wait (a slow or loaded
         * machine, valgrind): that must have been at its deadline; again,
         * with more time. */
        printf("  the waiter timed out before it was seen waiting (%ld ms)\n", ms);
        CHECK_EQ(atomic_load(&wait_ret), ABT_ERR_COND_TIMEDOUT);
        CHECK(ABT_get_wtime() >= seconds(deadline) - 2e-3);
        CHECK_OK(ABT_thread_free(&t));
        atomic_store(&wait_ret, NOT_RETURNED);
        if (ms >= 4800) {
            CHECK(!"the waiter never seen waiting");
            return;
        }
    }
    CHECK_OK(ABT_thread_cancel(t));
    if (signalled) {
        if (kind == COND) {
            CHECK_OK(ABT_mutex_lock(mtx));
            CHECK_OK(ABT_cond_signal(cond));
            CHECK_OK(ABT_mutex_unlock(mtx));
        } else {
            CHECK_OK(ABT_eventual_set(ev, NULL, 0));
        }
    }
    CHECK_OK(ABT_thread_free(&t));
    CHECK(t == ABT_THREAD_NULL);
    int r = atomic_load(&wait_ret);
    /* bobbin lets a cancelled ULT finish its wait; if it did not return at
     * all it was terminated, which must not have left its deadline armed. */
    if (r != NOT_RETURNED)
        CHECK_EQ(r, signalled ? ABT_SUCCESS : ABT_ERR_COND_TIMEDOUT);
    if (!signalled)
        CHECK(ABT_get_wtime() >= seconds(deadline) - 2e-3);

    if (kind == COND) {
        CHECK_OK(ABT_cond_free(&cond));
        CHECK(cond == ABT_COND_NULL);
    } else {
        CHECK_OK(ABT_eventual_free(&ev));
        CHECK(ev == ABT_EVENTUAL_NULL);
    }

    /* Reuse the stack(s) while the old deadline is still ahead. */
    for (int i = 0; i < 4; i++) {
        ABT_thread s[3];
        for (int j = 0; j < 3; j++)
            CHECK_OK(ABT_thread_create(pool, scribble, NULL, ABT_THREAD_ATTR_NULL, &s[j]));
        for (int j = 0; j < 3; j++)
            CHECK_OK(ABT_thread_free(&s[j]));
    }

    /* Past the old deadline (plus a margin), keep creating and running ULTs. */
    double until = seconds(deadline) + 0.05;
    while (ABT_get_wtime() < until) {
        ABT_thread s;
        CHECK_OK(ABT_thread_create(pool, scribble, NULL, ABT_THREAD_ATTR_NULL, &s));
        CHECK_OK(ABT_thread_free(&s));
        usleep(5000);
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_mutex_create(&mtx));

    run_case(COND, pool0, 1, "cond, primary ES, cancelled then signalled");
    run_case(COND, pool1, 1, "cond, second ES, cancelled then signalled");
    run_case(EVENTUAL, pool0, 1, "eventual, primary ES, cancelled then set");
    run_case(EVENTUAL, pool1, 1, "eventual, second ES, cancelled then set");
    run_case(COND, pool1, 0, "cond, second ES, cancelled, times out");
    run_case(EVENTUAL, pool0, 0, "eventual, primary ES, cancelled, times out");

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
