/* An external thread (a pthread that is not an ES) may use a mutex: it locks
 * a free mutex and owns it (a ULT's trylock is ABT_ERR_MUTEX_LOCKED and its
 * unlock ABT_ERR_MUTEX); its relock of a non-recursive mutex is
 * ABT_ERR_MUTEX; its unlock of a mutex a ULT holds is ABT_ERR_MUTEX; its lock
 * of a mutex a ULT holds sleeps until the ULT unlocks and then succeeds; two
 * external threads are distinct owners. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_mutex mtx;
static atomic_int phase;
static int e[8];

static void wait_phase(int p)
{
    while (atomic_load(&phase) < p)
        usleep(100);
}

/* Takes the mutex, lets the ULT and the second pthread try it, releases. */
static void *owner_ext(void *arg)
{
    (void)arg;
    e[0] = ABT_mutex_lock(mtx);
    e[1] = ABT_mutex_lock(mtx); /* ABT_ERR_MUTEX */
    atomic_store(&phase, 1);
    wait_phase(2);
    e[2] = ABT_mutex_unlock(mtx);
    return NULL;
}

static void *intruder_ext(void *arg)
{
    (void)arg;
    e[3] = ABT_mutex_trylock(mtx);
    e[4] = ABT_mutex_unlock(mtx);
    return NULL;
}

static atomic_int about_to_lock, got;
static void *waiter_ext(void *arg)
{
    (void)arg;
    e[5] = ABT_mutex_unlock(mtx); /* held by the primary ULT */
    atomic_store(&about_to_lock, 1);
    e[6] = ABT_mutex_lock(mtx);
    atomic_store(&got, 1);
    e[7] = ABT_mutex_unlock(mtx);
    return NULL;
}

static int u_try = -1, u_unlock = -1;
static void probe_ult(void *arg)
{
    (void)arg;
    u_try = ABT_mutex_trylock(mtx);
    u_unlock = ABT_mutex_unlock(mtx);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mtx));

    pthread_t p1, p2;
    CHECK_EQ(pthread_create(&p1, NULL, owner_ext, NULL), 0);
    wait_phase(1);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, probe_ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(u_try, ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(u_unlock, ABT_ERR_MUTEX);
    CHECK_EQ(pthread_create(&p2, NULL, intruder_ext, NULL), 0);
    pthread_join(p2, NULL);
    atomic_store(&phase, 2);
    pthread_join(p1, NULL);
    CHECK_EQ(e[0], ABT_SUCCESS);
    CHECK_EQ(e[1], ABT_ERR_MUTEX);
    CHECK_EQ(e[2], ABT_SUCCESS);
    CHECK_EQ(e[3], ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(e[4], ABT_ERR_MUTEX);

    /* The external thread waits for a ULT. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_EQ(pthread_create(&p1, NULL, waiter_ext, NULL), 0);
    while (!atomic_load(&about_to_lock))
        usleep(100);
    usleep(20000);
    for (int i = 0; i < 10; i++)
        ABT_thread_yield();
    CHECK_EQ(atomic_load(&got), 0);
    CHECK_OK(ABT_mutex_unlock(mtx));
    pthread_join(p1, NULL);
    CHECK_EQ(atomic_load(&got), 1);
    CHECK_EQ(e[5], ABT_ERR_MUTEX);
    CHECK_EQ(e[6], ABT_SUCCESS);
    CHECK_EQ(e[7], ABT_SUCCESS);
    CHECK_OK(ABT_mutex_trylock(mtx));
    CHECK_OK(ABT_mutex_unlock(mtx));

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
