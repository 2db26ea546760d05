/* A caller blocked in ABT_pool_pop_wait / pop_wait_thread(_ex) /
 * pop_timedwait on an empty shared pool (FIFO_WAIT MPMC, and a RANDWS MPMC)
 * with a long timeout gets the unit promptly when someone else pushes one
 * during the wait: an external pthread, a ULT on another ES, or (for an
 * external waiter) the primary ULT. "Promptly" is a generous bound (well
 * under the 5 s timeout). The ULTs are created in a pool that no scheduler
 * serves and are popped by hand before being handed over. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* The ABT_get_wtime clock (CLOCK_REALTIME in bobbin, as in Argobots); the
 * library does not export ABT_get_wtime itself yet. */
static double wtime_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define LONG_WAIT 5.0
#define PROMPT 2.5

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static atomic_int ran;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Push `what` into `where` after a short delay. */
static ABT_pool push_where;
static ABT_thread push_what;
static atomic_int push_ret = -1;

static void *ext_pusher(void *arg)
{
    (void)arg;
    usleep(50000);
    atomic_store(&push_ret, ABT_pool_push_thread(push_where, push_what));
    return NULL;
}

static void ult_pusher(void *arg)
{
    (void)arg;
    usleep(50000);
    atomic_store(&push_ret, ABT_pool_push_thread_ex(push_where, push_what,
                                                    ABT_POOL_CONTEXT_OP_THREAD_YIELD));
}

/* An external waiter. */
static ABT_pool wait_pool;
static ABT_thread ext_got;
static atomic_int ext_waiting, ext_ret = -1;
static double ext_elapsed;

static void *ext_waiter(void *arg)
{
    (void)arg;
    atomic_store(&ext_waiting, 1);
    double t0 = now_mono();
    atomic_store(&ext_ret, ABT_pool_pop_wait_thread(wait_pool, &ext_got, LONG_WAIT));
    ext_elapsed = now_mono() - t0;
    return NULL;
}

static ABT_pool src;

static ABT_thread popped_ult(void)
{
    ABT_thread t, x = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(src, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_pool_pop_thread(src, &x));
    CHECK(x == t);
    return t;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &src));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));

    ABT_pool pools[2];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[1]));
    ABT_thread all[16];
    int nall = 0;

    for (int p = 0; p < 2; p++) {
        ABT_pool pool = pools[p];
        push_where = pool;

        /* 1. pop_wait_thread, an external pthread pushes. */
        ABT_thread t = popped_ult();
        all[nall++] = t;
        push_what = t;
        atomic_store(&push_ret, -1);
        pthread_t pt;
        CHECK_EQ(pthread_create(&pt, NULL, ext_pusher, NULL), 0);
        ABT_thread got = ABT_THREAD_NULL;
        double t0 = now_mono();
        CHECK_OK(ABT_pool_pop_wait_thread(pool, &got, LONG_WAIT));
        double el = now_mono() - t0;
        pthread_join(pt, NULL);
        CHECK_EQ(atomic_load(&push_ret), ABT_SUCCESS);
        CHECK(got == t);
        CHECK(el < PROMPT);

        /* 2. pop_wait (unit), a ULT on another ES pushes. */
        t = popped_ult();
        all[nall++] = t;
        push_what = t;
        atomic_store(&push_ret, -1);
        ABT_thread pusher;
        ABT_unit u = ABT_UNIT_NULL, tu;
        CHECK_OK(ABT_thread_create_on_xstream(es, ult_pusher, NULL, ABT_THREAD_ATTR_NULL, &pusher));
        t0 = now_mono();
        CHECK_OK(ABT_pool_pop_wait(pool, &u, LONG_WAIT));
        el = now_mono() - t0;
        CHECK_OK(ABT_thread_free(&pusher));
        CHECK_EQ(atomic_load(&push_ret), ABT_SUCCESS);
        CHECK_OK(ABT_thread_get_unit(t, &tu));
        CHECK(u == tu);
        CHECK(el < PROMPT);

        /* 3. pop_wait_thread_ex, an external pthread pushes. */
        t = popped_ult();
        all[nall++] = t;
        push_what = t;
        CHECK_EQ(pthread_create(&pt, NULL, ext_pusher, NULL), 0);
        got = ABT_THREAD_NULL;
        t0 = now_mono();
        CHECK_OK(ABT_pool_pop_wait_thread_ex(pool, &got, LONG_WAIT,
                                             ABT_POOL_CONTEXT_OWNER_SECONDARY));
        el = now_mono() - t0;
        pthread_join(pt, NULL);
        CHECK(got == t);
        CHECK(el < PROMPT);

        /* 4. pop_timedwait (absolute deadline), another ES pushes. */
        t = popped_ult();
        all[nall++] = t;
        push_what = t;
        CHECK_OK(ABT_thread_create_on_xstream(es, ult_pusher, NULL, ABT_THREAD_ATTR_NULL, &pusher));
        u = ABT_UNIT_NULL;
        t0 = now_mono();
        CHECK_OK(ABT_pool_pop_timedwait(pool, &u, wtime_now() + LONG_WAIT));
        el = now_mono() - t0;
        CHECK_OK(ABT_thread_free(&pusher));
        CHECK_OK(ABT_thread_get_unit(t, &tu));
        CHECK(u == tu);
        CHECK(el < PROMPT);

        /* 5. The waiter is an external pthread; the primary ULT pushes. */
        t = popped_ult();
        all[nall++] = t;
        wait_pool = pool;
        ext_got = ABT_THREAD_NULL;
        atomic_store(&ext_waiting, 0);
        atomic_store(&ext_ret, -1);
        CHECK_EQ(pthread_create(&pt, NULL, ext_waiter, NULL), 0);
        while (!atomic_load(&ext_waiting))
            usleep(1000);
        usleep(50000);
        CHECK_OK(ABT_pool_push_thread(pool, t));
        pthread_join(pt, NULL);
        CHECK_EQ(atomic_load(&ext_ret), ABT_SUCCESS);
        CHECK(ext_got == t);
        CHECK(ext_elapsed < PROMPT);

        size_t size = 1;
        CHECK_OK(ABT_pool_get_size(pool, &size));
        CHECK_EQ(size, 0);
    }

    /* Run everything that was handed around. */
    for (int i = 0; i < nall; i++)
        CHECK_OK(ABT_pool_push_thread(main_pool, all[i]));
    for (int i = 0; i < nall; i++)
        CHECK_OK(ABT_thread_free(&all[i]));
    CHECK_EQ(atomic_load(&ran), nall);

    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&pools[0]));
    CHECK_OK(ABT_pool_free(&pools[1]));
    CHECK_OK(ABT_pool_free(&src));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
