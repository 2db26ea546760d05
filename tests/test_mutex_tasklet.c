/* A tasklet may use a mutex: it locks a free mutex and owns it (the primary
 * ULT's trylock is ABT_ERR_MUTEX_LOCKED and its unlock ABT_ERR_MUTEX until the
 * tasklet unlocks); relocking a non-recursive mutex it holds is
 * ABT_ERR_MUTEX; it nests a recursive mutex; its trylock of a mutex the
 * primary ULT holds is ABT_ERR_MUTEX_LOCKED; and its lock of a mutex the
 * primary ULT holds waits (holding its ES, no error) until the unlock, then
 * succeeds. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mtx, rmtx;
static atomic_int holding, release_now, about_to_lock, got;
static int r[12];

static void owner_task(void *arg)
{
    (void)arg;
    r[0] = ABT_mutex_lock(mtx);
    r[1] = ABT_mutex_lock(mtx);    /* relock: ABT_ERR_MUTEX */
    r[2] = ABT_mutex_trylock(mtx); /* ABT_ERR_MUTEX_LOCKED */
    r[3] = ABT_mutex_lock(rmtx);
    r[4] = ABT_mutex_lock(rmtx);
    r[5] = ABT_mutex_trylock(rmtx);
    atomic_store(&holding, 1);
    while (!atomic_load(&release_now))
        usleep(100);
    r[6] = ABT_mutex_unlock(mtx);
    r[7] = ABT_mutex_unlock(rmtx);
    r[8] = ABT_mutex_unlock(rmtx);
    r[9] = ABT_mutex_unlock(rmtx);
    r[10] = ABT_mutex_unlock(rmtx); /* one too many */
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

    /* The tasklet owns the mutexes. */
    ABT_task task;
    CHECK_OK(ABT_task_create(pool, owner_task, NULL, &task));
    while (!atomic_load(&holding))
        usleep(100);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(rmtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_unlock(rmtx), ABT_ERR_MUTEX);
    atomic_store(&release_now, 1);
    CHECK_OK(ABT_task_free(&task));
    const int expect[11] = {ABT_SUCCESS, ABT_ERR_MUTEX, ABT_ERR_MUTEX_LOCKED, ABT_SUCCESS,
                            ABT_SUCCESS, ABT_SUCCESS, ABT_SUCCESS, ABT_SUCCESS,
                            ABT_SUCCESS, ABT_SUCCESS, ABT_ERR_MUTEX};
    for (int i = 0; i < 11; i++) {
        if (r[i] != expect[i])
            fprintf(stderr, "owner_task step %d: got %d, expected %d\n", i, r[i], expect[i]);
        CHECK_EQ(r[i], expect[i]);
    }
    CHECK_OK(ABT_mutex_trylock(mtx));
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
