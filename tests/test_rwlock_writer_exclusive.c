/* ABT_rwlock write lock is exclusive: while a writer holds it, readers and
 * other writers (ULTs, which block, and an external pthread) wait; writers
 * and readers on two ESs plus an external thread never overlap with a
 * writer, and a plain counter updated under the write lock is exact. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define ITERS 300
#define NWRITERS 4
#define NREADERS 4

static ABT_rwlock lock;
static atomic_int writers_inside, readers_inside, overlaps;
static long counter; /* only touched under the write lock */
static atomic_int got_read, got_write;

static void write_once(void (*pause)(void))
{
    CHECK_OK(ABT_rwlock_wrlock(lock));
    if (atomic_fetch_add(&writers_inside, 1) != 0 || atomic_load(&readers_inside) != 0)
        atomic_fetch_add(&overlaps, 1);
    long c = counter;
    pause();
    counter = c + 1;
    if (atomic_load(&readers_inside) != 0)
        atomic_fetch_add(&overlaps, 1);
    atomic_fetch_sub(&writers_inside, 1);
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void read_once(void (*pause)(void))
{
    CHECK_OK(ABT_rwlock_rdlock(lock));
    atomic_fetch_add(&readers_inside, 1);
    if (atomic_load(&writers_inside) != 0)
        atomic_fetch_add(&overlaps, 1);
    pause();
    if (atomic_load(&writers_inside) != 0)
        atomic_fetch_add(&overlaps, 1);
    atomic_fetch_sub(&readers_inside, 1);
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void ult_pause(void)
{
    ABT_thread_yield();
}

static void ext_pause(void)
{
    sched_yield();
}

static void writer(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS; i++)
        write_once(ult_pause);
}

static void reader(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS; i++)
        read_once(ult_pause);
}

static void *ext_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < ITERS; i++) {
        write_once(ext_pause);
        read_once(ext_pause);
    }
    return NULL;
}

static void blocked_reader(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_rdlock(lock));
    atomic_store(&got_read, 1);
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void blocked_writer(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_wrlock(lock));
    atomic_store(&got_write, 1);
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
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[1]));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));
    CHECK_OK(ABT_rwlock_create(&lock));

    /* Held for writing: a reader ULT and a writer ULT block. */
    CHECK_OK(ABT_rwlock_wrlock(lock));
    ABT_thread r, w;
    CHECK_OK(ABT_thread_create(pools[1], blocked_reader, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_OK(ABT_thread_create(pools[1], blocked_writer, NULL, ABT_THREAD_ATTR_NULL, &w));
    wait_blocked(r);
    wait_blocked(w);
    CHECK_EQ(atomic_load(&got_read), 0);
    CHECK_EQ(atomic_load(&got_write), 0);
    CHECK_OK(ABT_rwlock_unlock(lock));
    CHECK_OK(ABT_thread_free(&r));
    CHECK_OK(ABT_thread_free(&w));
    CHECK_EQ(atomic_load(&got_read), 1);
    CHECK_EQ(atomic_load(&got_write), 1);

    /* Mixed load. */
    ABT_thread ts[NWRITERS + NREADERS];
    for (int i = 0; i < NWRITERS; i++)
        CHECK_OK(ABT_thread_create(pools[i % 2], writer, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    for (int i = 0; i < NREADERS; i++)
        CHECK_OK(ABT_thread_create(pools[i % 2], reader, NULL, ABT_THREAD_ATTR_NULL,
                                   &ts[NWRITERS + i]));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_thread, NULL), 0);
    for (int i = 0; i < NWRITERS + NREADERS; i++)
        CHECK_OK(ABT_thread_free(&ts[i]));
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(atomic_load(&overlaps), 0);
    CHECK_EQ(counter, (long)(NWRITERS + 1) * ITERS);

    CHECK_OK(ABT_rwlock_free(&lock));
    CHECK_OK(ABT_xstream_join(es[1]));
    CHECK_OK(ABT_xstream_free(&es[1]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
