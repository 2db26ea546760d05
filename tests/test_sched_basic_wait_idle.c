/* ABT_SCHED_BASIC_WAIT over shared pools sleeps while its pools are empty:
 * two idle BASIC_WAIT ESs (one with its default FIFO_WAIT pool, one over
 * [FIFO MPMC, FIFO_WAIT MPSC] user pools) use < 50 ms of process CPU in
 * 500 ms while the main thread sleeps (a generous bound: a polling ES would
 * burn ~500 ms). A ULT created from the primary ES, or from an external
 * thread, into any of their pools then runs there (given up to 2 s), and
 * ABT_xstream_join of an idle BASIC_WAIT ES returns within 1 s. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <time.h>

static atomic_int flag;
static atomic_int ran_rank;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static void set_flag(void *arg)
{
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    atomic_store(&ran_rank, rank);
    atomic_store(&flag, (int)(long)arg);
}

/* Wait up to 2 s for the flag to become `value`. */
static int wait_flag(int value)
{
    double end = now() + 2.0;
    while (atomic_load(&flag) != value && now() < end)
        usleep(1000);
    return atomic_load(&flag) == value;
}

static void push_and_check(ABT_pool pool, int value, int rank)
{
    CHECK_OK(ABT_thread_create(pool, set_flag, (void *)(long)value, ABT_THREAD_ATTR_NULL, NULL));
    CHECK(wait_flag(value));
    CHECK_EQ(atomic_load(&ran_rank), rank);
}

static ABT_pool ext_pool;
static int ext_ret = -1;
static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_thread_create(ext_pool, set_flag, (void *)(long)100, ABT_THREAD_ATTR_NULL,
                                NULL);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));

    ABT_xstream e1, e2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 0, NULL, ABT_SCHED_CONFIG_NULL, &e1));
    ABT_pool p1;
    CHECK_OK(ABT_xstream_get_main_pools(e1, 1, &p1));
    ABT_pool_access access;
    CHECK_OK(ABT_pool_get_access(p1, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);

    ABT_pool q[2];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPSC, ABT_FALSE, &q[1]));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 2, q, ABT_SCHED_CONFIG_NULL, &e2));
    int r1 = -1, r2 = -1;
    CHECK_OK(ABT_xstream_get_rank(e1, &r1));
    CHECK_OK(ABT_xstream_get_rank(e2, &r2));

    /* Both started and did something; then they go idle. */
    push_and_check(p1, 1, r1);
    push_and_check(q[0], 2, r2);
    usleep(50 * 1000);

    double c0 = cpu_seconds();
    usleep(500 * 1000);
    double used = cpu_seconds() - c0;
    printf("CPU used by two idle BASIC_WAIT ESs in 500 ms: %.1f ms\n", used * 1e3);
    CHECK(used < 0.050);

    /* Pushes wake them, into any of their pools. */
    push_and_check(p1, 3, r1);
    push_and_check(q[1], 4, r2);
    push_and_check(q[0], 5, r2);
    usleep(20 * 1000);
    push_and_check(q[1], 6, r2);
    ext_pool = q[0];
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_fn, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_SUCCESS);
    CHECK(wait_flag(100));
    CHECK_EQ(atomic_load(&ran_rank), r2);

    /* Idle again; join is prompt. */
    usleep(20 * 1000);
    double t0 = now();
    CHECK_OK(ABT_xstream_join(e1));
    double t1 = now();
    CHECK_OK(ABT_xstream_join(e2));
    double t2 = now();
    printf("join: %.1f ms and %.1f ms\n", (t1 - t0) * 1e3, (t2 - t1) * 1e3);
    CHECK(t1 - t0 < 1.0);
    CHECK(t2 - t1 < 1.0);
    CHECK_OK(ABT_xstream_free(&e1));
    CHECK_OK(ABT_xstream_free(&e2));
    CHECK_OK(ABT_pool_free(&q[0]));
    CHECK_OK(ABT_pool_free(&q[1]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
