/* ABT_rwlock readers hold the lock together: ULTs on two ESs, the main ULT
 * and an external pthread all hold a read lock at the same time. It is
 * reader-preferring: while readers hold it and a writer waits, a holder may
 * re-lock and a new reader is admitted at once; the writer gets the lock only
 * when the last read lock is released. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define NULTS 4
#define TOTAL (NULTS + 2) /* + main ULT + external thread */

static ABT_rwlock lock;
static atomic_int inside, left, writer_in, reader_in;

static void reader(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_rdlock(lock));
    atomic_fetch_add(&inside, 1);
    while (atomic_load(&inside) < TOTAL)
        ABT_thread_yield();
    CHECK_OK(ABT_rwlock_unlock(lock));
    atomic_fetch_add(&left, 1);
}

static void *ext_reader(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_rdlock(lock));
    atomic_fetch_add(&inside, 1);
    while (atomic_load(&inside) < TOTAL)
        usleep(100);
    CHECK_OK(ABT_rwlock_unlock(lock));
    atomic_fetch_add(&left, 1);
    return NULL;
}

static void writer(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_wrlock(lock));
    atomic_store(&writer_in, 1);
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void late_reader(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_rdlock(lock));
    atomic_store(&reader_in, 1);
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_TERMINATED) {
            CHECK(st != ABT_THREAD_STATE_TERMINATED);
            return;
        }
        ABT_thread_yield();
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[1]));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));
    CHECK_OK(ABT_rwlock_create(&lock));

    /* Everybody inside at once. */
    ABT_thread ts[NULTS];
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_create(pools[i % 2], reader, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_reader, NULL), 0);
    CHECK_OK(ABT_rwlock_rdlock(lock));
    atomic_fetch_add(&inside, 1);
    while (atomic_load(&inside) < TOTAL)
        ABT_thread_yield();
    CHECK_OK(ABT_rwlock_unlock(lock));
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_free(&ts[i]));
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(atomic_load(&left), TOTAL - 1);

    /* Reader preference with a writer waiting (all on this ES). */
    CHECK_OK(ABT_rwlock_rdlock(lock));
    ABT_thread w, r;
    CHECK_OK(ABT_thread_create(pools[0], writer, NULL, ABT_THREAD_ATTR_NULL, &w));
    wait_blocked(w);
    CHECK_OK(ABT_rwlock_rdlock(lock)); /* re-lock while holding */
    CHECK_OK(ABT_thread_create(pools[0], late_reader, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_OK(ABT_thread_free(&r)); /* a new reader gets in past the writer */
    CHECK_EQ(atomic_load(&reader_in), 1);
    CHECK_OK(ABT_rwlock_unlock(lock));
    for (int i = 0; i < 10; i++)
        ABT_thread_yield();
    CHECK_EQ(atomic_load(&writer_in), 0); /* we still hold one read lock */
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(w, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_OK(ABT_rwlock_unlock(lock));
    CHECK_OK(ABT_thread_free(&w));
    CHECK_EQ(atomic_load(&writer_in), 1);

    CHECK_OK(ABT_rwlock_free(&lock));
    CHECK_OK(ABT_xstream_join(es[1]));
    CHECK_OK(ABT_xstream_free(&es[1]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
