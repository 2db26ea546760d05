/* ABT_pool_pop_wait, pop_wait_thread, pop_wait_thread_ex and the deprecated
 * pop_timedwait on empty built-in pools: each returns success with a NULL
 * result once the timeout has passed (never before it); a past deadline or a
 * zero/negative timeout returns at once. On a shared pool (FIFO_WAIT, FIFO,
 * RANDWS; issue3-choices: they all wake sleepers) the caller sleeps: a
 * 200 ms wait uses far less CPU than wall time. On a PRIV pool it also waits
 * the time out (without a CPU bound). A non-empty pool hands its unit over
 * without waiting; an external thread can wait too. */
#include "bb_test.h"
#include <pthread.h>
#include <time.h>

static double now_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void noop(void *arg)
{
    (void)arg;
}

#define SHORT 0.05
#define SENT_UNIT ((ABT_unit)(void *)0x40)
#define SENT_THREAD ((ABT_thread)(void *)0x40)

/* All four calls on an empty pool, timeout `secs`: NULL, and not early. */
static void check_timeouts(ABT_pool pool, double secs)
{
    ABT_unit u = SENT_UNIT;
    ABT_thread t = SENT_THREAD;
    double t0 = now_mono();
    CHECK_OK(ABT_pool_pop_wait(pool, &u, secs));
    double el = now_mono() - t0;
    CHECK(u == ABT_UNIT_NULL);
    CHECK(el >= secs * 0.999);

    t0 = now_mono();
    CHECK_OK(ABT_pool_pop_wait_thread(pool, &t, secs));
    el = now_mono() - t0;
    CHECK(t == ABT_THREAD_NULL);
    CHECK(el >= secs * 0.999);

    t = SENT_THREAD;
    t0 = now_mono();
    CHECK_OK(ABT_pool_pop_wait_thread_ex(pool, &t, secs, ABT_POOL_CONTEXT_OWNER_SECONDARY));
    el = now_mono() - t0;
    CHECK(t == ABT_THREAD_NULL);
    CHECK(el >= secs * 0.999);

    u = SENT_UNIT;
    t0 = now_mono();
    CHECK_OK(ABT_pool_pop_timedwait(pool, &u, ABT_get_wtime() + secs));
    el = now_mono() - t0;
    CHECK(u == ABT_UNIT_NULL);
    CHECK(el >= secs * 0.999);
    if (el < secs * 0.999)
        fprintf(stderr, "pop_timedwait returned after %.4f s, deadline %.4f s\n", el, secs);
}

/* A 200 ms wait on an empty shared pool: wall >= 200 ms, CPU < 50 ms. */
static void check_sleeps(ABT_pool pool, int use_thread_variant)
{
    double w0 = now_mono(), c0 = now_cpu();
    if (use_thread_variant) {
        ABT_thread t = SENT_THREAD;
        CHECK_OK(ABT_pool_pop_wait_thread(pool, &t, 0.2));
        CHECK(t == ABT_THREAD_NULL);
    } else {
        ABT_unit u = SENT_UNIT;
        CHECK_OK(ABT_pool_pop_wait(pool, &u, 0.2));
        CHECK(u == ABT_UNIT_NULL);
    }
    double wall = now_mono() - w0, cpu = now_cpu() - c0;
    CHECK(wall >= 0.2 * 0.999);
    CHECK(cpu < 0.05);
    if (cpu >= 0.05)
        fprintf(stderr, "a 200 ms pop_wait used %.3f s of CPU (wall %.3f s)\n", cpu, wall);
}

static ABT_pool ext_pool;
static int ext_ret = -1;
static ABT_thread ext_got = SENT_THREAD;
static double ext_elapsed;

static void *ext_wait(void *arg)
{
    (void)arg;
    double t0 = now_mono();
    ext_ret = ABT_pool_pop_wait_thread(ext_pool, &ext_got, SHORT);
    ext_elapsed = now_mono() - t0;
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    const struct {
        ABT_pool_kind kind;
        ABT_pool_access access;
    } shared[] = {{ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC},
                  {ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_SPSC},
                  {ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC},
                  {ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPSC}};
    for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++) {
        ABT_pool pool;
        CHECK_OK(ABT_pool_create_basic(shared[i].kind, shared[i].access, ABT_FALSE, &pool));
        check_timeouts(pool, SHORT);
        check_sleeps(pool, (int)(i & 1));

        /* Immediate returns. */
        ABT_unit u = SENT_UNIT;
        double t0 = now_mono();
        CHECK_OK(ABT_pool_pop_timedwait(pool, &u, ABT_get_wtime() - 1.0));
        CHECK_OK(ABT_pool_pop_wait(pool, &u, 0.0));
        CHECK(u == ABT_UNIT_NULL);
        CHECK_OK(ABT_pool_pop_wait(pool, &u, -1.0));
        CHECK(u == ABT_UNIT_NULL);
        CHECK(now_mono() - t0 < 1.0);

        /* A unit already there is returned without waiting. */
        ABT_thread th;
        CHECK_OK(ABT_thread_create(pool, noop, NULL, ABT_THREAD_ATTR_NULL, &th));
        ABT_unit tu;
        CHECK_OK(ABT_thread_get_unit(th, &tu));
        t0 = now_mono();
        CHECK_OK(ABT_pool_pop_wait(pool, &u, 10.0));
        CHECK(u == tu);
        CHECK_OK(ABT_pool_push_thread(pool, th));
        ABT_thread got = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_wait_thread_ex(pool, &got, 10.0, ABT_POOL_CONTEXT_OWNER_PRIMARY));
        CHECK(got == th);
        CHECK_OK(ABT_pool_push_thread(pool, th));
        u = ABT_UNIT_NULL;
        CHECK_OK(ABT_pool_pop_timedwait(pool, &u, ABT_get_wtime() + 10.0));
        CHECK(u == tu);
        CHECK(now_mono() - t0 < 5.0);

        /* An external thread times out the same way. */
        ext_pool = pool;
        ext_got = SENT_THREAD;
        pthread_t pt;
        CHECK_EQ(pthread_create(&pt, NULL, ext_wait, NULL), 0);
        pthread_join(pt, NULL);
        CHECK_EQ(ext_ret, ABT_SUCCESS);
        CHECK(ext_got == ABT_THREAD_NULL);
        CHECK(ext_elapsed >= SHORT * 0.999);

        CHECK_OK(ABT_pool_push_thread(main_pool, th));
        CHECK_OK(ABT_thread_free(&th));
        CHECK_OK(ABT_pool_free(&pool));
    }

    /* Private pools wait the timeout out as well. */
    const ABT_pool_kind kinds[3] = {ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS};
    for (int k = 0; k < 3; k++) {
        ABT_pool pool;
        CHECK_OK(ABT_pool_create_basic(kinds[k], ABT_POOL_ACCESS_PRIV, ABT_FALSE, &pool));
        check_timeouts(pool, SHORT);
        CHECK_OK(ABT_pool_free(&pool));
    }

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
