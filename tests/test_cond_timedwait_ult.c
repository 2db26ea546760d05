/* ABT_cond_timedwait from a ULT: a deadline in the past returns
 * ABT_ERR_COND_TIMEDOUT at once; a deadline 50 ms ahead returns
 * ABT_ERR_COND_TIMEDOUT no earlier than the deadline; either way the mutex is
 * held again on return; a signal before a far deadline makes it return
 * ABT_SUCCESS. Checked for the primary ULT, for a ULT of a shared pool on a
 * second ES (it blocks and the alarm thread ends the wait; the ES runs other
 * ULTs meanwhile) and for a ULT of an ABT_POOL_ACCESS_PRIV pool (it polls). */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex mtx;
static atomic_int waiting_far;
static int r[8];
static double ended_at, near_deadline;
static atomic_int other_ran;

static void timed_cases(void *arg)
{
    (void)arg;
    struct timespec past = bb_test_realtime_in_ms(-1000);
    ABT_mutex_lock(mtx);
    r[0] = ABT_cond_timedwait(cond, mtx, &past);
    r[1] = ABT_mutex_trylock(mtx); /* held: ABT_ERR_MUTEX_LOCKED */
    r[2] = ABT_mutex_unlock(mtx);

    struct timespec near = bb_test_realtime_in_ms(50);
    near_deadline = (double)near.tv_sec + 1e-9 * (double)near.tv_nsec;
    ABT_mutex_lock(mtx);
    r[3] = ABT_cond_timedwait(cond, mtx, &near);
    ended_at = ABT_get_wtime();
    r[4] = ABT_mutex_trylock(mtx);
    r[5] = ABT_mutex_unlock(mtx);

    struct timespec far = bb_test_realtime_in_ms(60000);
    ABT_mutex_lock(mtx);
    atomic_store(&waiting_far, 1);
    r[6] = ABT_cond_timedwait(cond, mtx, &far);
    r[7] = ABT_mutex_unlock(mtx);
}

static void other(void *arg)
{
    (void)arg;
    atomic_store(&other_ran, 1);
}

static void check_results(const char *who)
{
    const int expect[8] = {ABT_ERR_COND_TIMEDOUT, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS,
                           ABT_ERR_COND_TIMEDOUT, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS,
                           ABT_SUCCESS, ABT_SUCCESS};
    for (int i = 0; i < 8; i++) {
        if (r[i] != expect[i])
            fprintf(stderr, "%s: step %d returned %d, expected %d\n", who, i, r[i], expect[i]);
        CHECK_EQ(r[i], expect[i]);
    }
    CHECK(ended_at >= near_deadline - 1e-3);
    CHECK(ended_at < near_deadline + 5.0);
}

/* Signal the far wait once the waiter is in the queue (it queued before it
 * released the mutex, so holding the mutex after the flag is enough). */
static void signal_far(void)
{
    while (!atomic_load(&waiting_far)) {
        ABT_thread_yield();
        usleep(100);
    }
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_mutex_unlock(mtx));
}

static void run_in(ABT_pool pool, const char *who)
{
    memset(r, -1, sizeof(r));
    atomic_store(&waiting_far, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, timed_cases, NULL, ABT_THREAD_ATTR_NULL, &t));
    /* In its timed waits the ULT is BLOCKED (not polling), and its ES runs
     * another ULT meanwhile (the far wait lasts until signal_far). */
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        usleep(20);
    }
    atomic_store(&other_ran, 0);
    ABT_thread o;
    CHECK_OK(ABT_thread_create(pool, other, NULL, ABT_THREAD_ATTR_NULL, &o));
    CHECK_OK(ABT_thread_free(&o));
    CHECK_EQ(atomic_load(&other_ran), 1);
    signal_far();
    CHECK_OK(ABT_thread_free(&t));
    check_results(who);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&mtx));

    /* The primary ULT itself (past and near only; nobody would signal). */
    memset(r, -1, sizeof(r));
    struct timespec past = bb_test_realtime_in_ms(-1000), near = bb_test_realtime_in_ms(50);
    near_deadline = (double)near.tv_sec + 1e-9 * (double)near.tv_nsec;
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_ERR(ABT_cond_timedwait(cond, mtx, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_ERR(ABT_cond_timedwait(cond, mtx, &near), ABT_ERR_COND_TIMEDOUT);
    ended_at = ABT_get_wtime();
    CHECK(ended_at >= near_deadline - 1e-3);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(mtx));

    /* A ULT of a shared pool on another ES. */
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    run_in(pool, "shared pool");
    CHECK_OK(ABT_xstream_free(&es));

    /* A ULT of a private pool: created before its ES starts, so that only
     * that ES ever touches the pool. */
    ABT_pool priv;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    memset(r, -1, sizeof(r));
    atomic_store(&waiting_far, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(priv, timed_cases, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &es));
    signal_far();
    CHECK_OK(ABT_thread_free(&t));
    check_results("private pool");
    CHECK_OK(ABT_xstream_free(&es));

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
