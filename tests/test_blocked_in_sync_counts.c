/* A ULT blocked in a synchronization object counts in its pool while it
 * waits: ABT_pool_get_total_size includes it (REFERENCE, section 7: "the
 * ULTs associated with it that are blocked or suspended"), as a suspended
 * ULT does; once it is woken and has ended, it no longer counts. One ULT
 * per object: mutex, condition variable, rwlock, eventual, future,
 * barrier. Mutation testing (switch.c,
 * bb_ult_block_releasing's count) found nothing checking the count for
 * synchronization objects (test_sched_get_size checks suspensions). */
#include "bb_test.h"

#include <pthread.h>
#include <stdatomic.h>

enum { MUTEX, COND, RWLOCK, EVENTUAL, FUTURE, BARRIER, KINDS };

static ABT_mutex mutex;
static ABT_cond cond;
static ABT_rwlock rwlock;
static ABT_eventual eventual;
static ABT_future future;
static ABT_barrier barrier;
static atomic_int entered, cond_go;

static void waiter(void *arg)
{
    switch ((int)(intptr_t)arg) {
    case MUTEX:
        atomic_store(&entered, 1);
        CHECK_OK(ABT_mutex_lock(mutex));
        CHECK_OK(ABT_mutex_unlock(mutex));
        break;
    case COND:
        CHECK_OK(ABT_mutex_lock(mutex));
        atomic_store(&entered, 1);
        while (!atomic_load(&cond_go))
            CHECK_OK(ABT_cond_wait(cond, mutex));
        CHECK_OK(ABT_mutex_unlock(mutex));
        break;
    case RWLOCK:
        atomic_store(&entered, 1);
        CHECK_OK(ABT_rwlock_rdlock(rwlock));
        CHECK_OK(ABT_rwlock_unlock(rwlock));
        break;
    case EVENTUAL:
        atomic_store(&entered, 1);
        CHECK_OK(ABT_eventual_wait(eventual, NULL));
        break;
    case FUTURE:
        atomic_store(&entered, 1);
        CHECK_OK(ABT_future_wait(future));
        break;
    case BARRIER:
        atomic_store(&entered, 1);
        CHECK_OK(ABT_barrier_wait(barrier));
        break;
    }
}

static void release(int kind)
{
    switch (kind) {
    case MUTEX:
        CHECK_OK(ABT_mutex_unlock(mutex));
        break;
    case COND:
        CHECK_OK(ABT_mutex_lock(mutex));
        atomic_store(&cond_go, 1);
        CHECK_OK(ABT_cond_signal(cond));
        CHECK_OK(ABT_mutex_unlock(mutex));
        break;
    case RWLOCK:
        CHECK_OK(ABT_rwlock_unlock(rwlock));
        break;
    case EVENTUAL:
        CHECK_OK(ABT_eventual_set(eventual, NULL, 0));
        break;
    case FUTURE:
        CHECK_OK(ABT_future_set(future, NULL));
        break;
    case BARRIER:
        CHECK_OK(ABT_barrier_wait(barrier)); /* an external thread: sleeps until both */
        break;
    }
}

static void *barrier_releaser(void *arg)
{
    (void)arg;
    release(BARRIER);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_rwlock_create(&rwlock));
    CHECK_OK(ABT_eventual_create(0, &eventual));
    CHECK_OK(ABT_future_create(1, NULL, &future));
    CHECK_OK(ABT_barrier_create(2, &barrier));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool es_pool; /* ES1's: nothing else runs there */
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_pool));
    for (int kind = 0; kind < KINDS; kind++) {
        atomic_store(&entered, 0);
        atomic_store(&cond_go, 0);
        if (kind == MUTEX)
            CHECK_OK(ABT_mutex_lock(mutex));
        if (kind == RWLOCK)
            CHECK_OK(ABT_rwlock_wrlock(rwlock));
        ABT_thread t;
        CHECK_OK(ABT_thread_create(es_pool, waiter, (void *)(intptr_t)kind, ABT_THREAD_ATTR_NULL,
                                   &t));
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        while (!atomic_load(&entered) || st != ABT_THREAD_STATE_BLOCKED)
            CHECK_OK(ABT_thread_get_state(t, &st));
        size_t n = 99;
        CHECK_OK(ABT_pool_get_total_size(es_pool, &n));
        CHECK_EQ(n, 1); /* the waiter, blocked */
        pthread_t th;
        if (kind == BARRIER)
            CHECK_EQ(pthread_create(&th, NULL, barrier_releaser, NULL), 0);
        else
            release(kind);
        CHECK_OK(ABT_thread_free(&t));
        if (kind == BARRIER)
            CHECK_EQ(pthread_join(th, NULL), 0);
        n = 99;
        CHECK_OK(ABT_pool_get_total_size(es_pool, &n));
        CHECK_EQ(n, 0);
    }
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK_OK(ABT_future_free(&future));
    CHECK_OK(ABT_eventual_free(&eventual));
    CHECK_OK(ABT_rwlock_free(&rwlock));
    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
