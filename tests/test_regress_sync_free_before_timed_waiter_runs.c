/* Freeing a condition variable (or an eventual) right after waking a timed
 * waiter returns at once, even when the waiter can only run on the freer's
 * own ES and that ES always prefers the freer's pool: the last one to leave
 * the object, here the waiter, releases its memory. (Waiting for the waiter
 * inside the free would wait for ever.) Run under ASan, this also checks
 * that nobody touches the freed object. */
#include "bb_test.h"
#include <time.h>

static ABT_mutex mutex;
static ABT_cond cond;
static ABT_eventual eventual;
static int waiting; /* polled from another ES: atomic */
static volatile int freed, waiter_done;

static void cond_waiter(void *arg)
{
    (void)arg;
    struct timespec ts = bb_test_realtime_in_ms(100 * 1000L);
    ABT_mutex_lock(mutex);
    __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_cond_timedwait(cond, mutex, &ts));
    ABT_mutex_unlock(mutex);
    waiter_done = 1;
}

static void cond_freer(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mutex);
    ABT_cond_signal(cond);
    ABT_mutex_unlock(mutex);
    CHECK_OK(ABT_cond_free(&cond));
    freed = 1;
}

static void eventual_waiter(void *arg)
{
    (void)arg;
    struct timespec ts = bb_test_realtime_in_ms(100 * 1000L);
    __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_eventual_timedwait(eventual, NULL, &ts));
    waiter_done = 1;
}

static void eventual_freer(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_set(eventual, NULL, 0));
    CHECK_OK(ABT_eventual_free(&eventual));
    freed = 1;
}

/* One ES, two pools: the waiter in the second, the freer in the first. */
static void run(void (*waiter)(void *), void (*freer)(void *))
{
    ABT_pool pools[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(sched, &es));
    __atomic_store_n(&waiting, 0, __ATOMIC_RELAXED);
    freed = waiter_done = 0;
    ABT_thread w, f;
    CHECK_OK(ABT_thread_create(pools[1], waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
    while (!__atomic_load_n(&waiting, __ATOMIC_ACQUIRE))
        CHECK_OK(ABT_thread_yield());
    usleep(10000); /* let it block */
    CHECK_OK(ABT_thread_create(pools[0], freer, NULL, ABT_THREAD_ATTR_NULL, &f));
    CHECK_OK(ABT_thread_free(&f));
    CHECK_EQ(freed, 1);
    CHECK_OK(ABT_thread_free(&w));
    CHECK_EQ(waiter_done, 1);
    CHECK_OK(ABT_xstream_free(&es));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_cond_create(&cond));
    run(cond_waiter, cond_freer);
    CHECK_OK(ABT_eventual_create(0, &eventual));
    run(eventual_waiter, eventual_freer);
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
