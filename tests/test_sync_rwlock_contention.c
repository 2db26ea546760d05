/* ABT_rwlock under contention: readers and writers as ULTs on 2 ESs plus one
 * external reader and one external writer. A writer is always alone (the
 * "writers inside" count is 0 or 1 and no reader is inside with it), readers
 * never see a writer inside nor a half-written value (two fields written one
 * after the other with yields in between), and the final value is exact.
 * Holders sometimes yield while holding the lock, so other units on the same
 * ES queue behind it. Unlocking a lock one does not hold -> ABT_ERR_RWLOCK. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "bb_test.h"

#define NES 2
#define NREADERS 16
#define NWRITERS 4
#define ITERS 1500
#define EXT_ITERS 1500

static ABT_rwlock rwlock;
static volatile long value_a, value_b; /* writers keep value_b == 2 * value_a */
static atomic_int writers_inside, readers_inside, errors, violations, ready, go;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void pause_holder(int i, int in_ult)
{
    if (i % 8 == 0) {
        if (in_ult)
            ABT_thread_yield();
        else
            sched_yield();
    }
}

static void write_once(int i, int in_ult)
{
    note(ABT_rwlock_wrlock(rwlock));
    if (atomic_fetch_add(&writers_inside, 1) != 0)
        atomic_fetch_add(&violations, 1);
    if (atomic_load(&readers_inside) != 0)
        atomic_fetch_add(&violations, 1);
    long a = value_a;
    value_a = a + 1;
    pause_holder(i, in_ult);
    value_b = 2 * (a + 1);
    if (atomic_load(&readers_inside) != 0)
        atomic_fetch_add(&violations, 1);
    if (atomic_fetch_sub(&writers_inside, 1) != 1)
        atomic_fetch_add(&violations, 1);
    note(ABT_rwlock_unlock(rwlock));
}

static void read_once(int i, int in_ult)
{
    note(ABT_rwlock_rdlock(rwlock));
    atomic_fetch_add(&readers_inside, 1);
    if (atomic_load(&writers_inside) != 0)
        atomic_fetch_add(&violations, 1);
    long a = value_a;
    pause_holder(i + 3, in_ult);
    long b = value_b;
    if (b != 2 * a)
        atomic_fetch_add(&violations, 1);
    if (atomic_load(&writers_inside) != 0)
        atomic_fetch_add(&violations, 1);
    atomic_fetch_sub(&readers_inside, 1);
    note(ABT_rwlock_unlock(rwlock));
}

static void writer(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        ABT_thread_yield();
    for (int i = 0; i < ITERS; i++)
        write_once(i, 1);
}

static void reader(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        ABT_thread_yield();
    for (int i = 0; i < ITERS; i++)
        read_once(i, 1);
}

static void *ext_worker(void *arg)
{
    int is_writer = (int)(intptr_t)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        sched_yield();
    for (int i = 0; i < EXT_ITERS; i++) {
        if (is_writer)
            write_once(i, 0);
        else
            read_once(i, 0);
    }
    return NULL;
}

static atomic_int holder_in, release_holder;

static void rd_holder(void *arg)
{
    (void)arg;
    note(ABT_rwlock_rdlock(rwlock));
    atomic_store(&holder_in, 1);
    while (!atomic_load(&release_holder))
        ABT_thread_yield();
    note(ABT_rwlock_unlock(rwlock));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pools[NES];
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));
    CHECK_OK(ABT_rwlock_create(&rwlock));

    /* Nobody holds it: unlocking fails. */
    CHECK_ERR(ABT_rwlock_unlock(rwlock), ABT_ERR_RWLOCK);

    ABT_thread w[NWRITERS], r[NREADERS];
    pthread_t ext[2];
    for (int i = 0; i < NWRITERS; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], writer, NULL, ABT_THREAD_ATTR_NULL, &w[i]));
    for (int i = 0; i < NREADERS; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], reader, NULL, ABT_THREAD_ATTR_NULL, &r[i]));
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&ext[i], NULL, ext_worker, (void *)(intptr_t)i), 0);
    while (atomic_load(&ready) < NWRITERS + NREADERS + 2)
        ABT_thread_yield(); /* everybody at the gate: start together */
    atomic_store(&go, 1);
    for (int i = 0; i < NWRITERS; i++)
        CHECK_OK(ABT_thread_free(&w[i]));
    for (int i = 0; i < NREADERS; i++)
        CHECK_OK(ABT_thread_free(&r[i]));
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_join(ext[i], NULL), 0);

    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_EQ(atomic_load(&violations), 0);
    CHECK_EQ(value_a, (long)NWRITERS * ITERS + EXT_ITERS);
    CHECK_EQ(value_b, 2 * value_a);
    CHECK_EQ(atomic_load(&writers_inside), 0);
    CHECK_EQ(atomic_load(&readers_inside), 0);

    /* While a reader on the other ES holds it, another reader gets in at once. */
    ABT_thread h;
    CHECK_OK(ABT_thread_create(pools[1], rd_holder, NULL, ABT_THREAD_ATTR_NULL, &h));
    while (!atomic_load(&holder_in))
        ABT_thread_yield();
    CHECK_OK(ABT_rwlock_rdlock(rwlock)); /* readers share */
    CHECK_OK(ABT_rwlock_unlock(rwlock));
    atomic_store(&release_holder, 1);
    CHECK_OK(ABT_thread_free(&h));
    CHECK_ERR(ABT_rwlock_unlock(rwlock), ABT_ERR_RWLOCK); /* nobody holds it any more */

    /* Free again: a writer gets it at once. */
    CHECK_OK(ABT_rwlock_wrlock(rwlock));
    CHECK_OK(ABT_rwlock_unlock(rwlock));
    CHECK_OK(ABT_rwlock_free(&rwlock));
    CHECK(rwlock == ABT_RWLOCK_NULL);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
