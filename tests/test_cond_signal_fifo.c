/* ABT_cond_signal wakes the oldest waiter: on a single ES, five ULTs wait in
 * turn (one of them with ABT_cond_timedwait and a far deadline, which queues
 * like the others); each signal wakes exactly one, in arrival order, while
 * the younger ones stay BLOCKED; every wait returns ABT_SUCCESS. */
#include "bb_test.h"
#include <time.h>

#define N 5

static ABT_cond cond;
static ABT_mutex mtx;
static struct timespec far;
static int arrived[N], narrived, woke[N], nwoke, ret[N];

static void waiter(void *arg)
{
    long i = (long)arg;
    ABT_mutex_lock(mtx);
    arrived[narrived++] = (int)i;
    if (i == 2)
        ret[i] = ABT_cond_timedwait(cond, mtx, &far);
    else
        ret[i] = ABT_cond_wait(cond, mtx);
    woke[nwoke++] = (int)i;
    ABT_mutex_unlock(mtx);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    clock_gettime(CLOCK_REALTIME, &far);
    far.tv_sec += 60;
    ABT_xstream primary;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&mtx));

    ABT_thread t[N];
    for (long i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(pool, waiter, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
        /* Let it run and queue before creating the next. */
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        for (int k = 0; k < 10000 && st != ABT_THREAD_STATE_BLOCKED; k++) {
            ABT_thread_yield();
            CHECK_OK(ABT_thread_get_state(t[i], &st));
        }
        CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    }
    CHECK_EQ(narrived, N);
    for (int i = 0; i < N; i++)
        CHECK_EQ(arrived[i], i);

    for (int k = 0; k < N; k++) {
        CHECK_OK(ABT_cond_signal(cond));
        for (int y = 0; y < 10000 && nwoke < k + 1; y++)
            ABT_thread_yield();
        for (int y = 0; y < 20; y++)
            ABT_thread_yield(); /* give any wrongly woken ULT a chance to run */
        CHECK_EQ(nwoke, k + 1);
        CHECK_EQ(woke[k], k);
        for (int j = k + 1; j < N; j++) {
            ABT_thread_state st;
            CHECK_OK(ABT_thread_get_state(t[j], &st));
            CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
        }
    }
    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(ret[i], ABT_SUCCESS);
    }

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
