/* An external thread (a pthread that is not an ES) waits in ABT_cond_wait
 * and is woken by a ULT's ABT_cond_signal; it holds the mutex again on
 * return. With two external waiters, one signal from a ULT wakes one of them
 * (the older) and the primary ULT's broadcast wakes the rest. Predicate
 * loops protect against early returns, and the number of wake-ups is
 * checked. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_cond cond;
static ABT_mutex mtx;
static int tickets, waiting, woke_ids[2], nwoke;
static int r_wait[2] = {-1, -1}, r_held[2] = {-1, -1};

static void *ext(void *arg)
{
    int id = (int)(long)arg;
    ABT_mutex_lock(mtx);
    waiting++;
    while (tickets == 0) {
        r_wait[id] = ABT_cond_wait(cond, mtx);
        if (r_wait[id] != ABT_SUCCESS)
            break;
    }
    tickets--;
    woke_ids[nwoke++] = id;
    r_held[id] = ABT_mutex_trylock(mtx); /* ABT_ERR_MUTEX_LOCKED: ours */
    ABT_mutex_unlock(mtx);
    return NULL;
}

static int s_ret = -1;
static void signal_one(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    tickets++;
    s_ret = ABT_cond_signal(cond);
    ABT_mutex_unlock(mtx);
}

static void until_waiting(int n)
{
    for (;;) {
        CHECK_OK(ABT_mutex_lock(mtx));
        int w = waiting;
        CHECK_OK(ABT_mutex_unlock(mtx));
        if (w >= n)
            return;
        usleep(200);
    }
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

    /* One waiter, signalled by a ULT on another ES. */
    pthread_t p0, p1;
    CHECK_EQ(pthread_create(&p0, NULL, ext, (void *)0), 0);
    until_waiting(1);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, signal_one, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    pthread_join(p0, NULL);
    CHECK_EQ(s_ret, ABT_SUCCESS);
    CHECK_EQ(r_wait[0], ABT_SUCCESS);
    CHECK_EQ(r_held[0], ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(nwoke, 1);

    /* Two waiters: one signal wakes the older, a broadcast the other. */
    waiting = 0;
    nwoke = 0;
    r_wait[0] = r_wait[1] = -1;
    CHECK_EQ(pthread_create(&p0, NULL, ext, (void *)0), 0);
    until_waiting(1);
    CHECK_EQ(pthread_create(&p1, NULL, ext, (void *)1), 0);
    until_waiting(2);
    CHECK_OK(ABT_thread_create(pool, signal_one, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    pthread_join(p0, NULL);
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_EQ(nwoke, 1);
    CHECK_EQ(woke_ids[0], 0);
    tickets++;
    CHECK_OK(ABT_cond_broadcast(cond));
    CHECK_OK(ABT_mutex_unlock(mtx));
    pthread_join(p1, NULL);
    CHECK_EQ(nwoke, 2);
    CHECK_EQ(woke_ids[1], 1);
    CHECK_EQ(r_wait[0], ABT_SUCCESS);
    CHECK_EQ(r_wait[1], ABT_SUCCESS);
    CHECK_EQ(r_held[1], ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(tickets, 0);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
