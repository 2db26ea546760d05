/* ABT_cond_timedwait is allowed in a tasklet (unlike ABT_cond_wait): a
 * deadline in the past returns ABT_ERR_COND_TIMEDOUT; a deadline 50 ms ahead
 * returns ABT_ERR_COND_TIMEDOUT no earlier than the deadline; the mutex is
 * held again each time; the primary ULT's signal before a far deadline makes
 * it return ABT_SUCCESS. A NULL abstime is ABT_ERR_INV_ARG. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex mtx;
static atomic_int waiting_far;
static int r[10];
static double ended_at, near_deadline;

static void task_fn(void *arg)
{
    (void)arg;
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

    struct timespec far = bb_test_realtime_in_ms(60000);
    ABT_mutex_lock(mtx);
    atomic_store(&waiting_far, 1);
    r[6] = ABT_cond_timedwait(cond, mtx, &far);
    r[7] = ABT_mutex_trylock(mtx);
    r[8] = ABT_cond_timedwait(cond, mtx, NULL);
    r[9] = ABT_mutex_unlock(mtx);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&mtx));

    memset(r, -1, sizeof(r));
    ABT_task task;
    CHECK_OK(ABT_task_create(pool, task_fn, NULL, &task));
    while (!atomic_load(&waiting_far))
        usleep(100);
    CHECK_OK(ABT_mutex_lock(mtx)); /* the tasklet is queued once we hold it */
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_task_free(&task));

    const int expect[10] = {ABT_ERR_COND_TIMEDOUT, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS,
                            ABT_ERR_COND_TIMEDOUT, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS,
                            ABT_SUCCESS, ABT_ERR_MUTEX_LOCKED, ABT_ERR_INV_ARG,
                            ABT_SUCCESS};
    for (int i = 0; i < 10; i++) {
        if (r[i] != expect[i])
            fprintf(stderr, "step %d returned %d, expected %d\n", i, r[i], expect[i]);
        CHECK_EQ(r[i], expect[i]);
    }
    CHECK(ended_at >= near_deadline - 1e-3);
    CHECK(ended_at < near_deadline + 5.0);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
