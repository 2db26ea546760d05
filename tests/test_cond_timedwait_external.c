/* ABT_cond_timedwait from an external thread (a pthread that is not an ES):
 * a deadline in the past returns ABT_ERR_COND_TIMEDOUT; a deadline 50 ms
 * ahead returns ABT_ERR_COND_TIMEDOUT no earlier than the deadline; the mutex
 * is held again each time; a ULT's signal before a far deadline makes it
 * return ABT_SUCCESS. Also before ABT_init, on static objects. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static ABT_mutex_memory mmem = ABT_MUTEX_INITIALIZER;
static ABT_cond_memory cmem = ABT_COND_INITIALIZER;
static ABT_cond cond;
static ABT_mutex mtx;
static atomic_int waiting_far;
static int r[8];
static double ended_at, near_deadline;

static void *ext(void *arg)
{
    int with_far = (int)(long)arg;
    struct timespec past = bb_test_realtime_in_ms(-1000);
    ABT_mutex_lock(mtx);
    r[0] = ABT_cond_timedwait(cond, mtx, &past);
    r[1] = ABT_mutex_trylock(mtx);
    r[2] = ABT_mutex_unlock(mtx);

    struct timespec near = bb_test_realtime_in_ms(50);
    near_deadline = (double)near.tv_sec + 1e-9 * (double)near.tv_nsec;
    ABT_mutex_lock(mtx);
    r[3] = ABT_cond_timedwait(cond, mtx, &near);
    ended_at = ABT_get_wtime();
    r[4] = ABT_mutex_trylock(mtx);
    r[5] = ABT_mutex_unlock(mtx);

    if (with_far) {
        struct timespec far = bb_test_realtime_in_ms(60000);
        ABT_mutex_lock(mtx);
        atomic_store(&waiting_far, 1);
        r[6] = ABT_cond_timedwait(cond, mtx, &far);
        r[7] = ABT_mutex_unlock(mtx);
    }
    return NULL;
}

static int s_lock = -1, s_signal = -1, s_unlock = -1;
static void signaller(void *arg)
{
    (void)arg;
    while (!atomic_load(&waiting_far))
        ABT_thread_yield();
    s_lock = ABT_mutex_lock(mtx); /* the waiter is queued once we hold it */
    s_signal = ABT_cond_signal(cond);
    s_unlock = ABT_mutex_unlock(mtx);
}

static void check_results(int n)
{
    const int expect[8] = {ABT_ERR_COND_TIMEDOUT, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS,
                           ABT_ERR_COND_TIMEDOUT, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS,
                           ABT_SUCCESS, ABT_SUCCESS};
    for (int i = 0; i < n; i++) {
        if (r[i] != expect[i])
            fprintf(stderr, "step %d returned %d, expected %d\n", i, r[i], expect[i]);
        CHECK_EQ(r[i], expect[i]);
    }
    CHECK(ended_at >= near_deadline - 1e-3);
    CHECK(ended_at < near_deadline + 5.0);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    pthread_t p;

    /* Before ABT_init: static objects. */
    mtx = ABT_MUTEX_MEMORY_GET_HANDLE(&mmem);
    cond = ABT_COND_MEMORY_GET_HANDLE(&cmem);
    memset(r, -1, sizeof(r));
    CHECK_EQ(pthread_create(&p, NULL, ext, (void *)0), 0);
    pthread_join(p, NULL);
    check_results(6);

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&mtx));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    memset(r, -1, sizeof(r));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, signaller, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_EQ(pthread_create(&p, NULL, ext, (void *)1), 0);
    pthread_join(p, NULL);
    CHECK_OK(ABT_thread_free(&t));
    check_results(8);
    CHECK_EQ(s_lock, ABT_SUCCESS);
    CHECK_EQ(s_signal, ABT_SUCCESS);
    CHECK_EQ(s_unlock, ABT_SUCCESS);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
