/* ABT_rwlock and the kinds of caller:
 * - a tasklet: rdlock/wrlock -> ABT_ERR_RWLOCK (a NULL handle is reported
 *   first, as ABT_ERR_INV_RWLOCK); it may unlock: with readers holding, any
 *   unlock drops one reader; with a writer holding (not the tasklet) or nobody
 *   holding -> ABT_ERR_RWLOCK;
 * - an external pthread: may rdlock, wrlock and unlock (unlock with nobody
 *   holding -> ABT_ERR_RWLOCK), and waits (in the
 *   kernel) for a lock held by a ULT; a ULT waits for a lock it holds;
 * - the write lock can only be released by its writer: unlock from another
 *   ULT, a tasklet or an external thread -> ABT_ERR_RWLOCK, and it stays held. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_rwlock lock;
static ABT_pool main_pool;
static atomic_int ext_phase, ext_holds;

static void tasklet_lockers(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_rwlock_rdlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_wrlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_rdlock(lock), ABT_ERR_RWLOCK);
    CHECK_ERR(ABT_rwlock_wrlock(lock), ABT_ERR_RWLOCK);
}

static void tasklet_unlock_ok(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void tasklet_unlock_fails(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_rwlock_unlock(lock), ABT_ERR_RWLOCK);
}

static void run_tasklet(void (*fn)(void *))
{
    ABT_task t;
    CHECK_OK(ABT_task_create(main_pool, fn, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
}

static void ult_unlock_fails(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_rwlock_unlock(lock), ABT_ERR_RWLOCK);
}

static void *ext_unlock_fails(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_rwlock_unlock(lock), ABT_ERR_RWLOCK);
    return NULL;
}

static void *ext_main(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_rwlock_unlock(lock), ABT_ERR_RWLOCK); /* nobody holds it */
    /* Plain use. */
    CHECK_OK(ABT_rwlock_rdlock(lock));
    CHECK_OK(ABT_rwlock_rdlock(lock));
    CHECK_OK(ABT_rwlock_unlock(lock));
    CHECK_OK(ABT_rwlock_unlock(lock));
    CHECK_OK(ABT_rwlock_wrlock(lock));
    CHECK_OK(ABT_rwlock_unlock(lock));
    atomic_store(&ext_phase, 1);
    /* The main ULT holds a read lock: wait for the write lock. */
    while (atomic_load(&ext_phase) != 2)
        usleep(100);
    CHECK_OK(ABT_rwlock_wrlock(lock));
    atomic_store(&ext_holds, 1);
    /* Hold it until the main ULT is waiting for a read lock. */
    while (atomic_load(&ext_phase) != 3)
        usleep(100);
    usleep(20000);
    atomic_store(&ext_holds, 0);
    CHECK_OK(ABT_rwlock_unlock(lock));
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es0, es1;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &main_pool));
    CHECK_OK(ABT_rwlock_create(&lock));

    /* Tasklets. */
    run_tasklet(tasklet_lockers);
    run_tasklet(tasklet_unlock_fails); /* nobody holds it */
    CHECK_OK(ABT_rwlock_rdlock(lock));
    CHECK_OK(ABT_rwlock_rdlock(lock));
    run_tasklet(tasklet_unlock_ok);    /* drops one of our two read locks */
    CHECK_OK(ABT_rwlock_unlock(lock));
    CHECK_ERR(ABT_rwlock_unlock(lock), ABT_ERR_RWLOCK);
    CHECK_OK(ABT_rwlock_wrlock(lock));
    run_tasklet(tasklet_lockers);
    run_tasklet(tasklet_unlock_fails); /* the main ULT is the writer */

    /* Another ULT (on another ES) and an external thread cannot release our
     * write lock either. */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    ABT_thread t;
    CHECK_OK(ABT_thread_create_on_xstream(es1, ult_unlock_fails, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_unlock_fails, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    /* Still ours. */
    CHECK_OK(ABT_rwlock_unlock(lock));
    CHECK_ERR(ABT_rwlock_unlock(lock), ABT_ERR_RWLOCK);

    /* External thread. */
    CHECK_EQ(pthread_create(&th, NULL, ext_main, NULL), 0);
    while (atomic_load(&ext_phase) != 1)
        ABT_thread_yield();
    CHECK_OK(ABT_rwlock_rdlock(lock));
    atomic_store(&ext_phase, 2);
    usleep(20000); /* the external writer is (very likely) waiting now */
    CHECK_EQ(atomic_load(&ext_holds), 0);
    CHECK_OK(ABT_rwlock_unlock(lock)); /* hands the lock to it */
    while (!atomic_load(&ext_holds))
        ABT_thread_yield();
    atomic_store(&ext_phase, 3);
    CHECK_OK(ABT_rwlock_rdlock(lock)); /* waits for the external writer */
    CHECK_EQ(atomic_load(&ext_holds), 0);
    CHECK_OK(ABT_rwlock_unlock(lock));
    CHECK_EQ(pthread_join(th, NULL), 0);

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_rwlock_free(&lock));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
