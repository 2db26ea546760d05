/* An external thread (a pthread that is not an ES) may use a mutex:
 * - plain: it locks a free mutex, which is then held for everybody (the
 *   primary ULT's, another ULT's and another external thread's trylock is
 *   ABT_ERR_MUTEX_LOCKED) until it unlocks; a plain mutex records no owner, so
 *   a ULT may unlock one an external thread locked, and an external thread
 *   one a ULT locked (ABT_SUCCESS, and the mutex is free after); unlocking it
 *   again is ABT_ERR_MUTEX;
 * - recursive: an external thread owns it: its relock nests; the primary
 *   ULT's, another ULT's and another external thread's trylock is
 *   ABT_ERR_MUTEX_LOCKED and their unlock ABT_ERR_MUTEX (two external
 *   threads are distinct owners); its unlock of one a ULT holds is
 *   ABT_ERR_MUTEX;
 * - its lock of a mutex a ULT holds sleeps until the ULT unlocks and then
 *   succeeds. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_mutex mtx, rmtx; /* plain, recursive */
static atomic_int phase;
static int e[8];

static void wait_phase(int p)
{
    while (atomic_load(&phase) < p)
        usleep(100);
}

/* Takes `arg` (twice if recursive), lets the others try it, releases. */
static void *owner_ext(void *arg)
{
    ABT_mutex m = (ABT_mutex)arg;
    e[0] = ABT_mutex_lock(m);
    e[1] = m == rmtx ? ABT_mutex_lock(m) : ABT_SUCCESS; /* nests */
    atomic_store(&phase, 1);
    wait_phase(2);
    e[2] = ABT_mutex_unlock(m);
    e[3] = m == rmtx ? ABT_mutex_unlock(m) : ABT_SUCCESS;
    e[4] = ABT_mutex_unlock(m); /* one too many */
    return NULL;
}

static int i_try = -1, i_unlock = -1;
static void *intruder_ext(void *arg)
{
    ABT_mutex m = (ABT_mutex)arg;
    i_try = ABT_mutex_trylock(m);
    if (m == rmtx)
        i_unlock = ABT_mutex_unlock(m); /* a plain one would be released */
    return NULL;
}

static int u_try = -1, u_unlock = -1;
static void probe_ult(void *arg)
{
    ABT_mutex m = (ABT_mutex)arg;
    u_try = ABT_mutex_trylock(m);
    if (m == rmtx)
        u_unlock = ABT_mutex_unlock(m);
}

static void check_held_by_ext(ABT_mutex m, ABT_pool pool)
{
    int rec = m == rmtx;
    printf("%s mutex held by an external thread\n", rec ? "recursive" : "plain");
    memset(e, -1, sizeof(e));
    u_try = u_unlock = i_try = i_unlock = -1;
    atomic_store(&phase, 0);
    pthread_t p1, p2;
    CHECK_EQ(pthread_create(&p1, NULL, owner_ext, (void *)m), 0);
    wait_phase(1);
    CHECK_ERR(ABT_mutex_trylock(m), ABT_ERR_MUTEX_LOCKED);
    if (rec)
        CHECK_ERR(ABT_mutex_unlock(m), ABT_ERR_MUTEX);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, probe_ult, (void *)m, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(u_try, ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(u_unlock, rec ? ABT_ERR_MUTEX : -1);
    CHECK_EQ(pthread_create(&p2, NULL, intruder_ext, (void *)m), 0);
    pthread_join(p2, NULL);
    CHECK_EQ(i_try, ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(i_unlock, rec ? ABT_ERR_MUTEX : -1);
    CHECK_ERR(ABT_mutex_trylock(m), ABT_ERR_MUTEX_LOCKED); /* still the owner's */
    atomic_store(&phase, 2);
    pthread_join(p1, NULL);
    CHECK_EQ(e[0], ABT_SUCCESS);
    CHECK_EQ(e[1], ABT_SUCCESS);
    CHECK_EQ(e[2], ABT_SUCCESS);
    CHECK_EQ(e[3], ABT_SUCCESS);
    CHECK_EQ(e[4], ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(m)); /* free again */
    CHECK_OK(ABT_mutex_unlock(m));
}

/* A plain mutex locked on one side and unlocked on the other. */
static int lock_ret = -1, unlock_ret[2] = {-1, -1};
static void *ext_lock_and_leave(void *arg)
{
    (void)arg;
    lock_ret = ABT_mutex_lock(mtx);
    return NULL;
}
static void *ext_unlock_twice(void *arg)
{
    (void)arg;
    unlock_ret[0] = ABT_mutex_unlock(mtx);
    unlock_ret[1] = ABT_mutex_unlock(mtx);
    return NULL;
}
static void ult_unlock_twice(void *arg)
{
    (void)arg;
    unlock_ret[0] = ABT_mutex_unlock(mtx);
    unlock_ret[1] = ABT_mutex_unlock(mtx);
}

static atomic_int about_to_lock, got;
static void *waiter_ext(void *arg)
{
    (void)arg;
    e[5] = ABT_mutex_unlock(rmtx); /* held by the primary ULT */
    atomic_store(&about_to_lock, 1);
    e[6] = ABT_mutex_lock(mtx);
    atomic_store(&got, 1);
    e[7] = ABT_mutex_unlock(mtx);
    return NULL;
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
    ABT_mutex_attr attr;
    CHECK_OK(ABT_mutex_attr_create(&attr));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, &rmtx));
    CHECK_OK(ABT_mutex_attr_free(&attr));

    check_held_by_ext(mtx, pool);
    check_held_by_ext(rmtx, pool);

    /* Plain: locked by an external thread (which then ends), unlocked by a
     * ULT; locked by the primary ULT, unlocked by an external thread. */
    pthread_t p1;
    CHECK_EQ(pthread_create(&p1, NULL, ext_lock_and_leave, NULL), 0);
    pthread_join(p1, NULL);
    CHECK_EQ(lock_ret, ABT_SUCCESS);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, ult_unlock_twice, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(unlock_ret[0], ABT_SUCCESS);
    CHECK_EQ(unlock_ret[1], ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(mtx)); /* free: now the primary ULT holds it */
    unlock_ret[0] = unlock_ret[1] = -1;
    CHECK_EQ(pthread_create(&p1, NULL, ext_unlock_twice, NULL), 0);
    pthread_join(p1, NULL);
    CHECK_EQ(unlock_ret[0], ABT_SUCCESS);
    CHECK_EQ(unlock_ret[1], ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(mtx)); /* free again */
    CHECK_OK(ABT_mutex_unlock(mtx));

    /* The external thread waits for a ULT; it cannot unlock the recursive
     * mutex the ULT holds. */
    CHECK_OK(ABT_mutex_lock(rmtx));
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
    CHECK_OK(ABT_mutex_unlock(rmtx)); /* still ours */
    CHECK_ERR(ABT_mutex_unlock(rmtx), ABT_ERR_MUTEX);

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_mutex_free(&rmtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
