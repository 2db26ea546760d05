/* ABT_eventual_timedwait racing a set at about the deadline: the result is
 * either ABT_SUCCESS with the value (and then the waiter may free the
 * eventual at once: the setter is done with it) or ABT_ERR_COND_TIMEDOUT
 * (and the set that comes later still succeeds and finds no stale waiter).
 * Stressed in a loop for a ULT of a shared pool (the alarm thread ends its
 * wait), a ULT of a private pool (it polls) and an external pthread (it
 * sleeps in the kernel), with the setter on another ES. Meant to be run
 * under the AddressSanitizer build too. */
#include "bb_test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#define ITERS 300

static ABT_eventual cur;
static atomic_int arrived, set_done, n_ok, n_timedout, bad;
static int iter;

static void delay_us(int us)
{
    double end = ABT_get_wtime() + us * 1e-6;
    while (ABT_get_wtime() < end) {
    }
}

static void waiter(void)
{
    ABT_eventual e = cur;
    int expect = iter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts = bb_test_timespec_add_ns(ts, (iter % 5) * 40000L); /* 0 .. 160 us */
    atomic_store(&arrived, 1);
    void *v = NULL;
    int ret = ABT_eventual_timedwait(e, &v, &ts);
    if (ret == ABT_SUCCESS) {
        if (!v || *(int *)v != expect)
            atomic_fetch_add(&bad, 1);
        atomic_fetch_add(&n_ok, 1);
    } else if (ret == ABT_ERR_COND_TIMEDOUT) {
        atomic_fetch_add(&n_timedout, 1);
        while (!atomic_load(&set_done))
            sched_yield();
    } else {
        BB_FAIL_AT("timedwait returned %d", ret);
        while (!atomic_load(&set_done))
            sched_yield();
    }
    CHECK_OK(ABT_eventual_free(&e));
}

static void ult_waiter(void *arg)
{
    (void)arg;
    waiter();
}

static void *ext_waiter(void *arg)
{
    (void)arg;
    waiter();
    return NULL;
}

static void setter(void *arg)
{
    (void)arg;
    int x = iter;
    while (!atomic_load(&arrived))
        sched_yield();
    delay_us((iter % 7) * 30); /* 0 .. 180 us */
    CHECK_OK(ABT_eventual_set(cur, &x, sizeof(x)));
    atomic_store(&set_done, 1);
}

static void begin_iter(void)
{
    CHECK_OK(ABT_eventual_create(sizeof(int), &cur));
    atomic_store(&arrived, 0);
    atomic_store(&set_done, 0);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));

    /* A ULT of ES1's shared pool waits; the main ULT (ES0) sets. */
    for (iter = 0; iter < ITERS; iter++) {
        begin_iter();
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool1, ult_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
        setter(NULL);
        CHECK_OK(ABT_thread_free(&t));
    }

    /* An external thread waits; the main ULT sets. */
    for (iter = 0; iter < ITERS; iter++) {
        begin_iter();
        pthread_t th;
        CHECK_EQ(pthread_create(&th, NULL, ext_waiter, NULL), 0);
        setter(NULL);
        CHECK_EQ(pthread_join(th, NULL), 0);
    }
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));

    /* A ULT of a private pool on ES1 waits (created before ES1 starts); the
     * main ULT sets. */
    for (iter = 0; iter < ITERS / 3; iter++) {
        begin_iter();
        ABT_pool priv;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
        ABT_thread t;
        CHECK_OK(ABT_thread_create(priv, ult_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &es1));
        setter(NULL);
        CHECK_OK(ABT_thread_free(&t));
        CHECK_OK(ABT_xstream_join(es1));
        CHECK_OK(ABT_xstream_free(&es1));
    }

    CHECK_EQ(atomic_load(&bad), 0);
    CHECK_EQ(atomic_load(&n_ok) + atomic_load(&n_timedout), 2 * ITERS + ITERS / 3);
    printf("succeeded %d, timed out %d\n", atomic_load(&n_ok), atomic_load(&n_timedout));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
