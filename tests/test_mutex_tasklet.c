/* A tasklet may use a mutex:
 * - it locks a free plain mutex, which is then held (its own trylock and the
 *   primary ULT's are ABT_ERR_MUTEX_LOCKED) until it unlocks;
 * - it owns a recursive mutex: it nests it (lock, lock, trylock, then three
 *   unlocks; a fourth is ABT_ERR_MUTEX), and until it unlocks, the primary
 *   ULT's trylock is ABT_ERR_MUTEX_LOCKED and its unlock ABT_ERR_MUTEX;
 * - a plain mutex records no owner: the primary ULT may unlock one a tasklet
 *   locked, and a tasklet one the primary ULT locked (ABT_SUCCESS, then the
 *   mutex is free and a second unlock is ABT_ERR_MUTEX);
 * - its trylock of a mutex the primary ULT holds is ABT_ERR_MUTEX_LOCKED, and
 *   its lock of it waits (holding its ES, no error) until the unlock, then
 *   succeeds. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mtx, rmtx;
static atomic_int holding, release_now, about_to_lock, got;
static int r[10];

static void owner_task(void *arg)
{
    (void)arg;
    r[0] = ABT_mutex_lock(mtx);
    r[1] = ABT_mutex_trylock(mtx); /* ABT_ERR_MUTEX_LOCKED */
    r[2] = ABT_mutex_lock(rmtx);
    r[3] = ABT_mutex_lock(rmtx);
    r[4] = ABT_mutex_trylock(rmtx);
    atomic_store(&holding, 1);
    while (!atomic_load(&release_now))
        usleep(100);
    r[5] = ABT_mutex_unlock(mtx);
    r[6] = ABT_mutex_unlock(rmtx);
    r[7] = ABT_mutex_unlock(rmtx);
    r[8] = ABT_mutex_unlock(rmtx);
    r[9] = ABT_mutex_unlock(rmtx); /* one too many */
}

static int l_ret = -1;
static void lock_task(void *arg)
{
    (void)arg;
    l_ret = ABT_mutex_lock(mtx);
}

static int u_ret[2] = {-1, -1};
static void unlock_task(void *arg)
{
    (void)arg;
    u_ret[0] = ABT_mutex_unlock(mtx);
    u_ret[1] = ABT_mutex_unlock(mtx);
}

static int w_try = -1, w_lock = -1, w_unlock = -1;
static void waiting_task(void *arg)
{
    (void)arg;
    w_try = ABT_mutex_trylock(mtx);
    atomic_store(&about_to_lock, 1);
    w_lock = ABT_mutex_lock(mtx);
    atomic_store(&got, 1);
    w_unlock = ABT_mutex_unlock(mtx);
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

    /* The tasklet holds both mutexes. */
    ABT_task task;
    CHECK_OK(ABT_task_create(pool, owner_task, NULL, &task));
    while (!atomic_load(&holding))
        usleep(100);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_trylock(rmtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_unlock(rmtx), ABT_ERR_MUTEX);
    atomic_store(&release_now, 1);
    CHECK_OK(ABT_task_free(&task));
    const int expect[10] = {ABT_SUCCESS, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS, ABT_SUCCESS,
                            ABT_SUCCESS, ABT_SUCCESS,          ABT_SUCCESS, ABT_SUCCESS,
                            ABT_SUCCESS, ABT_ERR_MUTEX};
    for (int i = 0; i < 10; i++) {
        if (r[i] != expect[i])
            fprintf(stderr, "owner_task step %d: got %d, expected %d\n", i, r[i], expect[i]);
        CHECK_EQ(r[i], expect[i]);
    }
    CHECK_OK(ABT_mutex_trylock(mtx));
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_mutex_trylock(rmtx));
    CHECK_OK(ABT_mutex_unlock(rmtx));

    /* Plain: locked by a tasklet, unlocked by the primary ULT... */
    CHECK_OK(ABT_task_create(pool, lock_task, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(l_ret, ABT_SUCCESS);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);
    /* ...and locked by the primary ULT, unlocked by a tasklet. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_OK(ABT_task_create(pool, unlock_task, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(u_ret[0], ABT_SUCCESS);
    CHECK_EQ(u_ret[1], ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(mtx)); /* it was free */
    CHECK_OK(ABT_mutex_unlock(mtx));

    /* The tasklet waits for the primary ULT. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_OK(ABT_task_create(pool, waiting_task, NULL, &task));
    while (!atomic_load(&about_to_lock))
        usleep(100);
    usleep(20000);
    CHECK_EQ(atomic_load(&got), 0);
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(atomic_load(&got), 1);
    CHECK_EQ(w_try, ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(w_lock, ABT_SUCCESS);
    CHECK_EQ(w_unlock, ABT_SUCCESS);

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_mutex_free(&rmtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
