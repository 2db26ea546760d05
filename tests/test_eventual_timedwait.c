/* ABT_eventual_timedwait (abstime: absolute CLOCK_REALTIME, as
 * ABT_get_wtime): when nothing sets the eventual it returns
 * ABT_ERR_COND_TIMEDOUT, not before the deadline, and leaves no waiter
 * behind (the eventual can be freed); a deadline already past on a
 * not-ready eventual times out at once; when the eventual is ready (already,
 * or set before a far deadline) it returns ABT_SUCCESS with the value, even
 * if the deadline is past. Checked for the main ULT, a ULT of a shared pool
 * on another ES (it blocks; the ES keeps running other ULTs), a ULT of an
 * ABT_POOL_ACCESS_PRIV pool (it polls), and an external pthread. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

static ABT_eventual ev;
static atomic_int waiting_far, other_ran;
static int fails;

static double secs(struct timespec ts)
{
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Runs in every kind of caller; counts failed checks in `fails` too, so
 * the main thread can tell which caller failed. */
static void timed_cases(void)
{
    int before = bb_test_failures;
    void *v = NULL;

    /* Expiry. */
    struct timespec ts = bb_test_realtime_in_ms(50);
    CHECK_ERR(ABT_eventual_timedwait(ev, &v, &ts), ABT_ERR_COND_TIMEDOUT);
    CHECK(ABT_get_wtime() >= secs(ts) - 0.001);

    /* A deadline in the past. */
    ts = bb_test_realtime_in_ms(-1000);
    CHECK_ERR(ABT_eventual_timedwait(ev, &v, &ts), ABT_ERR_COND_TIMEDOUT);

    /* Set before a far deadline (by the main thread). */
    ts = bb_test_realtime_in_ms(20000);
    atomic_store(&waiting_far, 1);
    v = NULL;
    CHECK_OK(ABT_eventual_timedwait(ev, &v, &ts));
    CHECK(ABT_get_wtime() < secs(ts));
    CHECK(v != NULL && *(int *)v == 77);

    /* Ready already: success even with a past deadline. */
    ts = bb_test_realtime_in_ms(-1000);
    v = NULL;
    CHECK_OK(ABT_eventual_timedwait(ev, &v, &ts));
    CHECK(v != NULL && *(int *)v == 77);
    fails += bb_test_failures - before;
}

static void ult_fn(void *arg)
{
    (void)arg;
    timed_cases();
}

static void *ext_fn(void *arg)
{
    (void)arg;
    timed_cases();
    return NULL;
}

static void other(void *arg)
{
    (void)arg;
    atomic_fetch_add(&other_ran, 1);
}

/* The setting side of the "set before a far deadline" case. */
static void serve(void)
{
    while (!atomic_load(&waiting_far))
        ABT_thread_yield();
    usleep(20000);
    int x = 77;
    CHECK_OK(ABT_eventual_set(ev, &x, sizeof(x)));
}

static void serve_ult(void *arg)
{
    (void)arg;
    serve();
}

static void fresh(void)
{
    CHECK_OK(ABT_eventual_create(sizeof(int), &ev));
    atomic_store(&waiting_far, 0);
    fails = 0;
}

static void done(const char *who)
{
    if (fails)
        fprintf(stderr, "  (the failures above were in the %s)\n", who);
    CHECK_OK(ABT_eventual_free(&ev)); /* nobody waits any more */
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;

    /* The main ULT: a helper ULT on another ES sets it. */
    fresh();
    {
        void *v = NULL;
        struct timespec ts = bb_test_realtime_in_ms(50);
        CHECK_ERR(ABT_eventual_timedwait(ev, &v, &ts), ABT_ERR_COND_TIMEDOUT);
        CHECK(ABT_get_wtime() >= secs(ts) - 0.001);
        ts = bb_test_realtime_in_ms(-1000);
        CHECK_ERR(ABT_eventual_timedwait(ev, &v, &ts), ABT_ERR_COND_TIMEDOUT);
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
        ABT_pool pool;
        CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
        atomic_store(&waiting_far, 1);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, serve_ult, NULL, ABT_THREAD_ATTR_NULL, &t));
        ts = bb_test_realtime_in_ms(20000);
        CHECK_OK(ABT_eventual_timedwait(ev, &v, &ts));
        CHECK(ABT_get_wtime() < secs(ts));
        CHECK(v != NULL && *(int *)v == 77);
        CHECK_OK(ABT_thread_free(&t));
        ts = bb_test_realtime_in_ms(-1000);
        CHECK_OK(ABT_eventual_timedwait(ev, &v, &ts));
        CHECK_OK(ABT_xstream_join(es));
        CHECK_OK(ABT_xstream_free(&es));
    }
    done("main ULT");

    /* A ULT of a shared pool on a second ES, which runs another ULT while it
     * waits. */
    fresh();
    atomic_store(&other_ran, 0);
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread t, o;
    CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_create(pool, other, NULL, ABT_THREAD_ATTR_NULL, &o));
    CHECK_OK(ABT_thread_free(&o));
    CHECK_EQ(atomic_load(&other_ran), 1);
    /* It blocks (rather than polling) while it waits. */
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    serve();
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    done("shared-pool ULT");

    /* A ULT of a private pool: created before its ES starts, so that only
     * that ES ever touches the pool. */
    fresh();
    ABT_pool priv;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    CHECK_OK(ABT_thread_create(priv, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &es));
    serve();
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    done("private-pool ULT");

    /* An external thread. */
    fresh();
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    serve();
    CHECK_EQ(pthread_join(th, NULL), 0);
    done("external thread");

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
