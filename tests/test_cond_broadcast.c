/* ABT_cond_broadcast wakes every current waiter at once, whatever kind: ULTs
 * on two ESs, an external thread, and a tasklet in ABT_cond_timedwait with a
 * far deadline all return ABT_SUCCESS after one broadcast, holding the mutex
 * in turn; a broadcast with nobody waiting is fine and is not remembered by
 * later waiters. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#define NULTS 6
#define NTOTAL (NULTS + 2)

static ABT_cond cond;
static ABT_mutex mtx;
static struct timespec far;
static int waiting, inside;
static atomic_int woken, errors;
static int ret[NTOTAL];

static void do_wait(int i, int timed)
{
    ABT_mutex_lock(mtx);
    waiting++;
    ret[i] = timed ? ABT_cond_timedwait(cond, mtx, &far) : ABT_cond_wait(cond, mtx);
    /* We hold the mutex again: nobody else may be inside. */
    if (inside++ != 0)
        atomic_fetch_add(&errors, 1);
    inside--;
    ABT_mutex_unlock(mtx);
    atomic_fetch_add(&woken, 1);
}

static void ult_fn(void *arg)
{
    do_wait((int)(long)arg, 0);
}
static void task_fn(void *arg)
{
    do_wait((int)(long)arg, 1);
}
static void *ext_fn(void *arg)
{
    do_wait((int)(long)arg, 0);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    clock_gettime(CLOCK_REALTIME, &far);
    far.tv_sec += 60;
    ABT_xstream es1, es2;
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pools[0]));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pools[1]));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&mtx));

    CHECK_OK(ABT_cond_broadcast(cond)); /* nobody waits */

    ABT_thread t[NULTS];
    for (long i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_create(pools[i & 1], ult_fn, (void *)i, ABT_THREAD_ATTR_NULL,
                                   &t[i]));
    pthread_t p;
    CHECK_EQ(pthread_create(&p, NULL, ext_fn, (void *)(long)(NULTS + 1)), 0);

    /* Waiters queue before they release the mutex: once we hold it and see
     * them all counted, they are all in the queue. The tasklet comes last,
     * when no ULT needs ES 2 any more (it holds the ES while it waits). */
    ABT_task task = ABT_TASK_NULL;
    for (;;) {
        CHECK_OK(ABT_mutex_lock(mtx));
        int w = waiting;
        if (w == NTOTAL)
            break;
        if (w == NTOTAL - 1 && task == ABT_TASK_NULL)
            CHECK_OK(ABT_task_create(pools[1], task_fn, (void *)(long)NULTS, &task));
        CHECK_OK(ABT_mutex_unlock(mtx));
        usleep(200);
    }
    CHECK_EQ(atomic_load(&woken), 0);
    CHECK_OK(ABT_cond_broadcast(cond));
    CHECK_OK(ABT_mutex_unlock(mtx));

    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_task_free(&task));
    pthread_join(p, NULL);
    CHECK_EQ(atomic_load(&woken), NTOTAL);
    CHECK_EQ(atomic_load(&errors), 0);
    for (int i = 0; i < NTOTAL; i++)
        CHECK_EQ(ret[i], ABT_SUCCESS);

    /* The broadcast is not remembered. */
    struct timespec soon = bb_test_realtime_in_ms(30);
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_ERR(ABT_cond_timedwait(cond, mtx, &soon), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(mtx));

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
