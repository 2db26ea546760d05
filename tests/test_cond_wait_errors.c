/* Error codes of ABT_cond_wait / timedwait:
 * - wait from a tasklet is ABT_ERR_COND, checked before the handles (even
 *   with NULL cond and mutex), and leaves the tasklet's mutex held;
 *   timedwait from a tasklet is allowed (its handle checks apply);
 * - NULL cond -> ABT_ERR_INV_COND (before the mutex), NULL mutex ->
 *   ABT_ERR_INV_MUTEX, timedwait with NULL abstime -> ABT_ERR_INV_ARG;
 * - waiting on a mutex that is not locked at all -> ABT_ERR_MUTEX, plain or
 *   recursive, from a ULT and from an external thread; the mutex stays free;
 * - waiting on a recursive mutex held by somebody else (another ULT, or an
 *   external thread; seen from a ULT and from an external thread) ->
 *   ABT_ERR_MUTEX, for wait and timedwait; the mutex stays the holder's.
 *   (A plain mutex records no holder, as in Argobots: a wait on one that
 *   somebody else holds cannot be refused, so it is not tried here.) */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex mtx, rmtx; /* plain, recursive */
static struct timespec future;
static int t[8];

static void task_fn(void *arg)
{
    (void)arg;
    t[0] = ABT_cond_wait(ABT_COND_NULL, ABT_MUTEX_NULL);
    t[1] = ABT_cond_wait(cond, ABT_MUTEX_NULL);
    t[2] = ABT_mutex_lock(mtx);
    t[3] = ABT_cond_wait(cond, mtx);
    t[4] = ABT_mutex_unlock(mtx); /* still held after the refusal */
    t[5] = ABT_cond_timedwait(ABT_COND_NULL, mtx, &future);
    t[6] = ABT_cond_timedwait(cond, ABT_MUTEX_NULL, &future);
    t[7] = ABT_cond_timedwait(cond, mtx, NULL);
}

static int h_ret = -1;
static void holder(void *arg)
{
    (void)arg;
    h_ret = ABT_mutex_lock(rmtx);
}

static int x[4];
static atomic_int ext_holding, ext_release;
/* Waits on `arg`, which it does not hold. */
static void *ext_not_holding(void *arg)
{
    ABT_mutex m = (ABT_mutex)arg;
    x[0] = ABT_cond_wait(cond, m);
    x[1] = ABT_cond_timedwait(cond, m, &future);
    return NULL;
}
static void *ext_holder(void *arg)
{
    (void)arg;
    x[2] = ABT_mutex_lock(rmtx);
    atomic_store(&ext_holding, 1);
    while (!atomic_load(&ext_release))
        usleep(100);
    x[3] = ABT_mutex_unlock(rmtx);
    return NULL;
}

static void create_recursive(ABT_mutex *m)
{
    ABT_mutex_attr attr;
    CHECK_OK(ABT_mutex_attr_create(&attr));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, m));
    CHECK_OK(ABT_mutex_attr_free(&attr));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    clock_gettime(CLOCK_REALTIME, &future);
    future.tv_sec += 30;
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&mtx));
    create_recursive(&rmtx);

    /* Tasklet. */
    ABT_task task;
    CHECK_OK(ABT_task_create(pool, task_fn, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(t[0], ABT_ERR_COND);
    CHECK_EQ(t[1], ABT_ERR_COND);
    CHECK_EQ(t[2], ABT_SUCCESS);
    CHECK_EQ(t[3], ABT_ERR_COND);
    CHECK_EQ(t[4], ABT_SUCCESS);
    CHECK_EQ(t[5], ABT_ERR_INV_COND);
    CHECK_EQ(t[6], ABT_ERR_INV_MUTEX);
    CHECK_EQ(t[7], ABT_ERR_INV_ARG);

    /* Handles, from the primary ULT. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_ERR(ABT_cond_wait(ABT_COND_NULL, ABT_MUTEX_NULL), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_wait(ABT_COND_NULL, mtx), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_wait(cond, ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(ABT_COND_NULL, ABT_MUTEX_NULL, &future), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_timedwait(ABT_COND_NULL, mtx, &future), ABT_ERR_INV_COND);
    CHECK_ERR(ABT_cond_timedwait(cond, ABT_MUTEX_NULL, &future), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(cond, mtx, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED); /* still held after each error */
    CHECK_OK(ABT_mutex_unlock(mtx));

    /* Not locked at all: plain and recursive, from the primary ULT and from
     * an external thread. */
    CHECK_ERR(ABT_cond_wait(cond, mtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(cond, mtx, &future), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_cond_wait(cond, rmtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(cond, rmtx, &future), ABT_ERR_MUTEX);
    pthread_t p;
    ABT_mutex both[2] = {mtx, rmtx};
    for (int i = 0; i < 2; i++) {
        x[0] = x[1] = -1;
        CHECK_EQ(pthread_create(&p, NULL, ext_not_holding, (void *)both[i]), 0);
        pthread_join(p, NULL);
        CHECK_EQ(x[0], ABT_ERR_MUTEX);
        CHECK_EQ(x[1], ABT_ERR_MUTEX);
    }
    CHECK_OK(ABT_mutex_trylock(mtx)); /* and still free */
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_mutex_trylock(rmtx));
    CHECK_OK(ABT_mutex_unlock(rmtx));
    CHECK_ERR(ABT_mutex_unlock(rmtx), ABT_ERR_MUTEX); /* not nested by the refusals */

    /* Recursive, held by another ULT (joined but not freed, so its identity
     * stays). */
    ABT_thread h;
    CHECK_OK(ABT_thread_create(pool, holder, NULL, ABT_THREAD_ATTR_NULL, &h));
    CHECK_OK(ABT_thread_join(h));
    CHECK_EQ(h_ret, ABT_SUCCESS);
    CHECK_ERR(ABT_cond_wait(cond, rmtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(cond, rmtx, &future), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(rmtx), ABT_ERR_MUTEX_LOCKED); /* still the other's */
    CHECK_ERR(ABT_mutex_unlock(rmtx), ABT_ERR_MUTEX);
    /* An external thread does not hold it either. */
    x[0] = x[1] = -1;
    CHECK_EQ(pthread_create(&p, NULL, ext_not_holding, (void *)rmtx), 0);
    pthread_join(p, NULL);
    CHECK_EQ(x[0], ABT_ERR_MUTEX);
    CHECK_EQ(x[1], ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(rmtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_free(&rmtx)); /* locked by the finished ULT: freeable */
    CHECK_OK(ABT_thread_free(&h));

    /* Recursive, held by an external thread. */
    create_recursive(&rmtx);
    CHECK_EQ(pthread_create(&p, NULL, ext_holder, NULL), 0);
    while (!atomic_load(&ext_holding))
        usleep(100);
    CHECK_ERR(ABT_cond_wait(cond, rmtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(cond, rmtx, &future), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(rmtx), ABT_ERR_MUTEX_LOCKED);
    atomic_store(&ext_release, 1);
    pthread_join(p, NULL);
    CHECK_EQ(x[2], ABT_SUCCESS);
    CHECK_EQ(x[3], ABT_SUCCESS); /* the holder's unlock: still its own */
    CHECK_OK(ABT_mutex_trylock(rmtx));
    CHECK_OK(ABT_mutex_unlock(rmtx));

    /* Nobody waits: the cond is freeable. */
    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_mutex_free(&rmtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
