/* Timed waits (ABT_cond_timedwait, ABT_eventual_timedwait):
 * - nobody signals: ABT_ERR_COND_TIMEDOUT, returned at or after the deadline
 *   (a 50 ms timeout; generous upper bound of 2 s) and, for the condition,
 *   with the mutex held again by the caller;
 * - signalled / set from the other ES before the deadline: ABT_SUCCESS with
 *   the predicate / payload visible, well before the deadline;
 * each from a ULT in a shared pool (it blocks; the alarm thread ends the wait),
 * from an external pthread (sleeps in the kernel), and from a ULT whose pool is
 * ABT_POOL_ACCESS_PRIV (the polling fallback);
 * - many concurrent timed waiters with different deadlines across 2 ESs each
 *   time out no earlier than their own deadline, while the signalled ones
 *   among them succeed;
 * - a deadline in the past times out at once; an eventual that is ready
 *   returns ABT_SUCCESS even then; NULL abstime -> ABT_ERR_INV_ARG; a tasklet
 *   may time out in ABT_cond_timedwait (it sleeps in the kernel) but gets
 *   ABT_ERR_COND from ABT_cond_wait and ABT_ERR_EVENTUAL from
 *   ABT_eventual_timedwait. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#include "bb_test.h"

#define TIMEOUT_MS 50
#define UPPER 2.0
#define NMULTI 12
/* The deadline of a wait that a signal or a set ends at once: far enough
 * that a loaded machine (ThreadSanitizer beside other tests) still signals
 * before it; at 1.9 s one such waiter timed out once. */
#define SIGNALLED_MS 5000

static ABT_pool shared_pool, priv_pool, primary_pool;
static atomic_int failures;

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);                     \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
            atomic_fetch_add(&failures, 1);                                                \
        }                                                                                  \
    } while (0)

static int reached(const struct timespec *d)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > d->tv_sec || (now.tv_sec == d->tv_sec && now.tv_nsec >= d->tv_nsec);
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the cases, runnable from a ULT or from an external thread --------------- */

/* Which kind of caller runs a case (for messages). */
static const char *who;

static void cond_timeout_case(void)
{
    ABT_mutex m;
    ABT_cond c;
    EXPECT(ABT_mutex_create(&m) == ABT_SUCCESS, "%s", who);
    EXPECT(ABT_cond_create(&c) == ABT_SUCCESS, "%s", who);
    EXPECT(ABT_mutex_lock(m) == ABT_SUCCESS, "%s", who);
    /* The monotonic clock is read first: a preemption between the two reads
     * must not make the measured wait look shorter than the timeout. */
    double t0 = mono();
    struct timespec d = bb_test_realtime_in_ms(TIMEOUT_MS);
    int ret = ABT_cond_timedwait(c, m, &d);
    double el = mono() - t0;
    EXPECT(ret == ABT_ERR_COND_TIMEDOUT, "%s: returned %d", who, ret);
    EXPECT(reached(&d), "%s: returned before the deadline (%.4f s)", who, el);
    EXPECT(el >= TIMEOUT_MS * 1e-3 - 1e-4 && el < UPPER, "%s: took %.4f s", who, el);
    /* The mutex is ours again: unlocking works once, then it is not held. */
    ret = ABT_mutex_unlock(m);
    EXPECT(ret == ABT_SUCCESS, "%s: unlock after timeout returned %d", who, ret);
    ret = ABT_mutex_unlock(m);
    EXPECT(ret == ABT_ERR_MUTEX, "%s: second unlock returned %d", who, ret);
    EXPECT(ABT_cond_free(&c) == ABT_SUCCESS, "%s", who); /* no waiter left behind */
    EXPECT(ABT_mutex_free(&m) == ABT_SUCCESS, "%s", who);
}

static void eventual_timeout_case(void)
{
    ABT_eventual e;
    EXPECT(ABT_eventual_create(sizeof(long), &e) == ABT_SUCCESS, "%s", who);
    /* The monotonic clock is read first: a preemption between the two reads
     * must not make the measured wait look shorter than the timeout. */
    double t0 = mono();
    struct timespec d = bb_test_realtime_in_ms(TIMEOUT_MS);
    void *value = NULL;
    int ret = ABT_eventual_timedwait(e, &value, &d);
    double el = mono() - t0;
    EXPECT(ret == ABT_ERR_COND_TIMEDOUT, "%s: returned %d", who, ret);
    EXPECT(reached(&d), "%s: returned before the deadline (%.4f s)", who, el);
    EXPECT(el >= TIMEOUT_MS * 1e-3 - 1e-4 && el < UPPER, "%s: took %.4f s", who, el);
    ABT_bool ready = ABT_TRUE;
    EXPECT(ABT_eventual_test(e, NULL, &ready) == ABT_SUCCESS && ready == ABT_FALSE, "%s", who);
    EXPECT(ABT_eventual_free(&e) == ABT_SUCCESS, "%s", who); /* no waiter left behind */
}

/* Signalled before the deadline by a ULT on the primary ES. */
static ABT_mutex sig_mutex;
static ABT_cond sig_cond;
static ABT_eventual sig_ev;
static int sig_pred, sig_waiting; /* under sig_mutex */
static atomic_int ev_waiting;

static void cond_signaller(void *arg)
{
    (void)arg;
    for (;;) {
        ABT_mutex_lock(sig_mutex);
        /* The waiter set sig_waiting with the mutex held and released it only
         * inside ABT_cond_timedwait: it is queued now. */
        if (sig_waiting)
            break;
        ABT_mutex_unlock(sig_mutex);
        ABT_thread_yield();
    }
    sig_pred = 1;
    ABT_cond_signal(sig_cond);
    ABT_mutex_unlock(sig_mutex);
}

static void eventual_setter(void *arg)
{
    (void)arg;
    while (!atomic_load(&ev_waiting))
        ABT_thread_yield();
    for (int i = 0; i < 20; i++)
        ABT_thread_yield();
    long v = 31337;
    ABT_eventual_set(sig_ev, &v, sizeof(v));
}

/* Set while the cases run in a ULT of a PRIV pool. Such a ULT must not
 * block in ABT_thread_free of a signaller on the primary ES: the signaller's
 * end would wake it by a push into its ES's private pool from the primary
 * ES, which only that ES may touch (as in Argobots). It waits for the
 * signaller to end by polling instead, and then frees it. */
static atomic_int in_priv_pool;

static void free_signaller(ABT_thread *s)
{
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (atomic_load(&in_priv_pool) && ABT_thread_get_state(*s, &state) == ABT_SUCCESS &&
           state != ABT_THREAD_STATE_TERMINATED)
        ABT_thread_yield();
    EXPECT(ABT_thread_free(s) == ABT_SUCCESS, "%s", who);
}

static void cond_signalled_case(void)
{
    ABT_thread s;
    sig_pred = sig_waiting = 0;
    EXPECT(ABT_mutex_lock(sig_mutex) == ABT_SUCCESS, "%s", who);
    sig_waiting = 1;
    EXPECT(ABT_thread_create(primary_pool, cond_signaller, NULL, ABT_THREAD_ATTR_NULL, &s) ==
               ABT_SUCCESS,
           "%s", who);
    struct timespec d = bb_test_realtime_in_ms(SIGNALLED_MS);
    double t0 = mono();
    int ret = ABT_SUCCESS;
    while (!sig_pred && ret == ABT_SUCCESS)
        ret = ABT_cond_timedwait(sig_cond, sig_mutex, &d);
    double el = mono() - t0;
    EXPECT(ret == ABT_SUCCESS, "%s: returned %d", who, ret);
    EXPECT(sig_pred == 1, "%s", who);
    EXPECT(!reached(&d) && el < SIGNALLED_MS / 1000.0 - 0.1, "%s: took %.4f s", who, el);
    ret = ABT_mutex_unlock(sig_mutex);
    EXPECT(ret == ABT_SUCCESS, "%s: unlock after wake-up returned %d", who, ret);
    free_signaller(&s);
}

static void eventual_signalled_case(void)
{
    ABT_thread s;
    atomic_store(&ev_waiting, 0);
    EXPECT(ABT_eventual_reset(sig_ev) == ABT_SUCCESS, "%s", who);
    EXPECT(ABT_thread_create(primary_pool, eventual_setter, NULL, ABT_THREAD_ATTR_NULL, &s) ==
               ABT_SUCCESS,
           "%s", who);
    struct timespec d = bb_test_realtime_in_ms(SIGNALLED_MS);
    double t0 = mono();
    atomic_store(&ev_waiting, 1);
    void *value = NULL;
    int ret = ABT_eventual_timedwait(sig_ev, &value, &d);
    double el = mono() - t0;
    EXPECT(ret == ABT_SUCCESS, "%s: returned %d", who, ret);
    EXPECT(value && *(long *)value == 31337, "%s: wrong payload", who);
    EXPECT(!reached(&d) && el < SIGNALLED_MS / 1000.0 - 0.1, "%s: took %.4f s", who, el);
    free_signaller(&s);
}

static void all_cases(void)
{
    cond_timeout_case();
    eventual_timeout_case();
    cond_signalled_case();
    eventual_signalled_case();
}

static void ult_cases(void *arg)
{
    who = arg;
    all_cases();
}

static atomic_int ext_done;

static void *ext_cases(void *arg)
{
    who = arg;
    all_cases();
    atomic_store(&ext_done, 1);
    return NULL;
}

/* A driver in the shared pool starts the waiter in the PRIV pool of its ES. */
static void priv_driver(void *arg)
{
    (void)arg;
    ABT_thread t;
    atomic_store(&in_priv_pool, 1);
    EXPECT(ABT_thread_create(priv_pool, ult_cases, "ULT in a PRIV pool", ABT_THREAD_ATTR_NULL,
                             &t) == ABT_SUCCESS,
           "driver");
    EXPECT(ABT_thread_free(&t) == ABT_SUCCESS, "driver");
    atomic_store(&in_priv_pool, 0);
}

/* ---- many timed waiters at once ---------------------------------------------- */

typedef struct {
    long ms;
    int signalled; /* gets a signal (odd ones) instead of timing out */
    int ret;
    int early;
    int go;        /* under multi_mutex */
} multi_t;

static ABT_mutex multi_mutex;
static ABT_cond multi_cond[NMULTI];
static multi_t multi[NMULTI];
static atomic_int multi_queued;

static void multi_waiter(void *arg)
{
    multi_t *w = arg;
    int i = (int)(w - multi);
    ABT_mutex_lock(multi_mutex);
    struct timespec d = bb_test_realtime_in_ms(w->ms);
    atomic_fetch_add(&multi_queued, 1);
    int ret = ABT_SUCCESS;
    while (!w->go && ret == ABT_SUCCESS)
        ret = ABT_cond_timedwait(multi_cond[i], multi_mutex, &d);
    w->ret = ret;
    if (ret == ABT_ERR_COND_TIMEDOUT && !reached(&d))
        w->early = 1;
    ABT_mutex_unlock(multi_mutex);
}

static void multi_part(void)
{
    /* Timeouts of 20..240 ms in shuffled order; the odd ones, with deadlines
     * far away, are signalled at once instead. */
    CHECK_OK(ABT_mutex_create(&multi_mutex));
    ABT_thread t[NMULTI];
    for (int i = 0; i < NMULTI; i++) {
        multi[i].signalled = i % 2;
        multi[i].ms = multi[i].signalled ? SIGNALLED_MS : 20 + 20 * ((i * 7) % NMULTI);
        multi[i].ret = -1;
        CHECK_OK(ABT_cond_create(&multi_cond[i]));
        CHECK_OK(ABT_thread_create(i % 2 ? primary_pool : shared_pool, multi_waiter, &multi[i],
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    }
    while (atomic_load(&multi_queued) < NMULTI)
        ABT_thread_yield();
    for (int i = 1; i < NMULTI; i += 2) {
        CHECK_OK(ABT_mutex_lock(multi_mutex)); /* the waiter is in its wait now */
        multi[i].go = 1;
        CHECK_OK(ABT_cond_signal(multi_cond[i]));
        CHECK_OK(ABT_mutex_unlock(multi_mutex));
    }
    for (int i = 0; i < NMULTI; i++) {
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(multi[i].ret, multi[i].signalled ? ABT_SUCCESS : ABT_ERR_COND_TIMEDOUT);
        CHECK_EQ(multi[i].early, 0);
        CHECK_OK(ABT_cond_free(&multi_cond[i]));
    }
    CHECK_OK(ABT_mutex_free(&multi_mutex));
}

/* ---- edge cases ----------------------------------------------------------------- */

static int task_wait_ret = -1, task_timed_ret = -1, task_ev_ret = -1, task_unlock_ret = -1;
static int task_early = -1;
static ABT_mutex task_mutex;
static ABT_cond task_cond;
static ABT_eventual task_ev;

static void tasklet_fn(void *arg)
{
    (void)arg;
    struct timespec d = bb_test_realtime_in_ms(TIMEOUT_MS);
    if (ABT_mutex_lock(task_mutex) == ABT_SUCCESS) {
        task_wait_ret = ABT_cond_wait(task_cond, task_mutex); /* cannot block */
        /* A timed wait is allowed: the tasklet sleeps in the kernel. */
        task_timed_ret = ABT_cond_timedwait(task_cond, task_mutex, &d);
        task_early = !reached(&d);
        task_unlock_ret = ABT_mutex_unlock(task_mutex); /* held again */
    }
    task_ev_ret = ABT_eventual_timedwait(task_ev, NULL, &d);
}

static void edge_cases(void)
{
    ABT_mutex m;
    ABT_cond c;
    ABT_eventual e;
    CHECK_OK(ABT_mutex_create(&m));
    CHECK_OK(ABT_cond_create(&c));
    CHECK_OK(ABT_eventual_create(sizeof(int), &e));
    struct timespec past = bb_test_realtime_in_ms(0);
    past.tv_sec -= 1;

    CHECK_OK(ABT_mutex_lock(m));
    double t0 = mono();
    CHECK_ERR(ABT_cond_timedwait(c, m, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_ERR(ABT_eventual_timedwait(e, NULL, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK(mono() - t0 < 1.0);
    CHECK_ERR(ABT_cond_timedwait(c, m, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_eventual_timedwait(e, NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_mutex_unlock(m)); /* still held after the immediate timeout */

    int v = 5;
    void *value = NULL;
    CHECK_OK(ABT_eventual_set(e, &v, sizeof(v)));
    CHECK_OK(ABT_eventual_timedwait(e, &value, &past)); /* ready: no wait at all */
    CHECK(value && *(int *)value == 5);

    /* A tasklet: no untimed cond wait, no eventual wait; a timed cond wait
     * sleeps until the deadline. */
    CHECK_OK(ABT_eventual_reset(e));
    task_mutex = m;
    task_cond = c;
    task_ev = e;
    ABT_task task;
    CHECK_OK(ABT_task_create(shared_pool, tasklet_fn, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(task_wait_ret, ABT_ERR_COND);
    CHECK_EQ(task_timed_ret, ABT_ERR_COND_TIMEDOUT);
    CHECK_EQ(task_early, 0);
    CHECK_EQ(task_unlock_ret, ABT_SUCCESS);
    CHECK_EQ(task_ev_ret, ABT_ERR_EVENTUAL);

    CHECK_OK(ABT_eventual_free(&e));
    CHECK_OK(ABT_cond_free(&c));
    CHECK_OK(ABT_mutex_free(&m));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &primary_pool));
    ABT_pool pools[2];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pools[1]));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &es));
    shared_pool = pools[0];
    priv_pool = pools[1];
    CHECK_OK(ABT_mutex_create(&sig_mutex));
    CHECK_OK(ABT_cond_create(&sig_cond));
    CHECK_OK(ABT_eventual_create(sizeof(long), &sig_ev));

    /* A ULT on the secondary ES, in its shared (MPMC) pool. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(shared_pool, ult_cases, "ULT in an MPMC pool",
                               ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&failures), 0);

    /* An external thread; the main ULT yields so that the primary ES runs the
     * signallers meanwhile. */
    pthread_t ext;
    CHECK_EQ(pthread_create(&ext, NULL, ext_cases, "external thread"), 0);
    while (!atomic_load(&ext_done))
        ABT_thread_yield();
    CHECK_EQ(pthread_join(ext, NULL), 0);
    CHECK_EQ(atomic_load(&failures), 0);

    /* A ULT in a PRIV pool: the polling fallback. */
    CHECK_OK(ABT_thread_create(shared_pool, priv_driver, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&failures), 0);

    /* The main ULT itself (primary ES, default pool). */
    who = "main ULT on the primary ES";
    cond_timeout_case();
    eventual_timeout_case();
    CHECK_EQ(atomic_load(&failures), 0);

    multi_part();
    edge_cases();

    CHECK_OK(ABT_eventual_free(&sig_ev));
    CHECK_OK(ABT_cond_free(&sig_cond));
    CHECK_OK(ABT_mutex_free(&sig_mutex));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
