/* Mutual exclusion under real contention: 2 ESs (the primary and one secondary,
 * each with its default pool) x 50 ULTs x 1,000 increments of a plain counter
 * inside the critical section give exactly 100,000, for every way of taking
 * the mutex: lock/unlock, lock_high/unlock_se mixed with lock_low/unlock_de,
 * spinlock, a trylock loop (ABT_ERR_MUTEX_LOCKED while held), a static
 * ABT_MUTEX_INITIALIZER mutex, and recursive mutexes (from an attribute and
 * from ABT_RECURSIVE_MUTEX_INITIALIZER) locked twice per increment. After
 * each round the mutex is free again. */
#include "bb_test.h"
#include <stdatomic.h>

#define NES 2
#define ULTS_PER_ES 50
#define ITERS 1000
#define TOTAL ((long)NES * ULTS_PER_ES * ITERS)

enum { V_LOCK, V_HIGH_LOW, V_SPIN, V_TRYLOCK, V_STATIC, V_RECURSIVE, V_STATIC_RECURSIVE, NV };
static const char *names[NV] = {"lock",   "lock_high/low",  "spinlock",          "trylock",
                                "static", "recursive attr", "static recursive"};

static ABT_mutex_memory static_mutex = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory static_rec_mutex = ABT_RECURSIVE_MUTEX_INITIALIZER;

static ABT_mutex mutex;
static int variant;
static volatile long counter;
static atomic_int ready, go, inside, overlap, errors;

/* A deliberately non-atomic read-modify-write that a race would break. */
static void critical(void)
{
    if (atomic_fetch_add(&inside, 1) != 0)
        atomic_fetch_add(&overlap, 1);
    long v = counter;
    for (volatile int k = 0; k < 8; k++) {
    }
    counter = v + 1;
    atomic_fetch_sub(&inside, 1);
}

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        ABT_thread_yield();
    for (int i = 0; i < ITERS; i++) {
        if (i % 64 == 63)
            ABT_thread_yield(); /* spread the work out so both ESs overlap */
        switch (variant) {
        case V_LOCK:
        case V_STATIC:
            note(ABT_mutex_lock(mutex));
            critical();
            note(ABT_mutex_unlock(mutex));
            break;
        case V_HIGH_LOW:
            if ((id + i) % 2) {
                note(ABT_mutex_lock_high(mutex));
                critical();
                note(ABT_mutex_unlock_se(mutex));
            } else {
                note(ABT_mutex_lock_low(mutex));
                critical();
                note(ABT_mutex_unlock_de(mutex));
            }
            break;
        case V_SPIN:
            note(ABT_mutex_spinlock(mutex));
            critical();
            note(ABT_mutex_unlock(mutex));
            break;
        case V_TRYLOCK: {
            int ret;
            while ((ret = ABT_mutex_trylock(mutex)) == ABT_ERR_MUTEX_LOCKED)
                ABT_thread_yield();
            note(ret);
            critical();
            note(ABT_mutex_unlock(mutex));
            break;
        }
        case V_RECURSIVE:
        case V_STATIC_RECURSIVE:
            note(ABT_mutex_lock(mutex));
            /* Second level alternates between lock and trylock. */
            note(i % 2 ? ABT_mutex_lock(mutex) : ABT_mutex_trylock(mutex));
            critical();
            note(ABT_mutex_unlock(mutex));
            /* Still held once: nobody else may be inside. */
            if (atomic_load(&inside) != 0)
                atomic_fetch_add(&overlap, 1);
            note(ABT_mutex_unlock(mutex));
            break;
        }
    }
}

static void run_variant(int v, ABT_pool pools[NES])
{
    ABT_mutex_attr attr = ABT_MUTEX_ATTR_NULL;
    variant = v;
    counter = 0;
    atomic_store(&ready, 0);
    atomic_store(&go, 0);
    atomic_store(&overlap, 0);
    atomic_store(&errors, 0);
    switch (v) {
    case V_STATIC:
        mutex = ABT_MUTEX_MEMORY_GET_HANDLE(&static_mutex);
        break;
    case V_STATIC_RECURSIVE:
        mutex = ABT_MUTEX_MEMORY_GET_HANDLE(&static_rec_mutex);
        break;
    case V_RECURSIVE:
        CHECK_OK(ABT_mutex_attr_create(&attr));
        CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
        CHECK_OK(ABT_mutex_create_with_attr(attr, &mutex));
        CHECK_OK(ABT_mutex_attr_free(&attr));
        break;
    default:
        CHECK_OK(ABT_mutex_create(&mutex));
        break;
    }

    ABT_thread t[NES * ULTS_PER_ES];
    for (int i = 0; i < NES * ULTS_PER_ES; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], worker, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    /* Start them together: the main ULT yields until every ULT, on both
     * ESs, is waiting at the gate. */
    while (atomic_load(&ready) < NES * ULTS_PER_ES)
        ABT_thread_yield();
    atomic_store(&go, 1);
    for (int i = 0; i < NES * ULTS_PER_ES; i++)
        CHECK_OK(ABT_thread_free(&t[i]));

    if (counter != TOTAL || atomic_load(&overlap) || atomic_load(&errors))
        fprintf(stderr, "variant %s: counter %ld, overlaps %d, errors %d\n", names[v],
                (long)counter, atomic_load(&overlap), atomic_load(&errors));
    CHECK_EQ(counter, TOTAL);
    CHECK_EQ(atomic_load(&overlap), 0);
    CHECK_EQ(atomic_load(&errors), 0);

    /* Free again: the main ULT takes and releases it at once. */
    CHECK_OK(ABT_mutex_trylock(mutex));
    CHECK_OK(ABT_mutex_unlock(mutex));
    CHECK_ERR(ABT_mutex_unlock(mutex), ABT_ERR_MUTEX);
    if (v != V_STATIC && v != V_STATIC_RECURSIVE) {
        CHECK_OK(ABT_mutex_free(&mutex));
        CHECK(mutex == ABT_MUTEX_NULL);
    }
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

    for (int v = 0; v < NV; v++)
        run_variant(v, pools);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
