/* Regression: migrating ULTs into another ES's private pool. ES 1's main
 * pool is private (only ES 1 touches it, without a lock), and ULTs keep
 * yielding in it. Meanwhile ULTs on ES 2 are sent to ES 1 in every way a
 * migration can happen: the primary migrates ready and running ones
 * (ABT_thread_migrate_to_xstream), and others migrate themselves. The
 * migrating thread once pushed straight into ES 1's list, racing with ES 1's
 * own pops and pushes (ThreadSanitizer reports it; a corrupt list loses or
 * duplicates ULTs). Now the unit waits on the pool's incoming stack until
 * ES 1 takes it in. Checks: every migration succeeds, every ULT runs on
 * ES 1 after it and finishes exactly once, its callback ran once, and ES 1's
 * pool is empty at the end. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 32

static ABT_xstream es1;
static atomic_int stop_locals, go[N], finished[N], on_es1[N], callbacks[N];

static void moved(ABT_thread thread, void *arg)
{
    (void)thread;
    atomic_fetch_add(&callbacks[(long)arg], 1);
}

static int my_rank(void)
{
    int rank = -1;
    CHECK_OK(ABT_self_get_xstream_rank(&rank));
    return rank;
}

/* Even ULTs are migrated by the primary, odd ones migrate themselves. Both
 * yield on ES 2 until told to go, and then until they find themselves on
 * ES 1. */
static void traveller(void *arg)
{
    long i = (long)arg;
    while (!atomic_load(&go[i]))
        ABT_thread_yield();
    if (i % 2) {
        ABT_thread self;
        CHECK_OK(ABT_self_get_thread(&self));
        CHECK_OK(ABT_thread_migrate_to_xstream(self, es1));
    }
    while (my_rank() != 1)
        ABT_thread_yield();
    atomic_store(&on_es1[i], 1);
    for (int k = 0; k < 8; k++) {
        ABT_thread_yield(); /* stays on ES 1 */
        CHECK_EQ(my_rank(), 1);
    }
    atomic_fetch_add(&finished[i], 1);
}

/* Keeps ES 1 pushing to and popping from its private pool. */
static void local(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_locals))
        ABT_thread_yield();
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool priv, shared;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
    ABT_thread locals[4];
    for (int k = 0; k < 4; k++) /* made before ES 1 runs: its home is then ES 1 */
        CHECK_OK(ABT_thread_create(priv, local, NULL, ABT_THREAD_ATTR_NULL, &locals[k]));
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &es1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &es2));
    CHECK_OK(ABT_xstream_set_rank(es1, 1));
    CHECK_OK(ABT_xstream_set_rank(es2, 2));

    int rounds = BB_TEST_SIZE(200, 20);
    for (int r = 0; r < rounds; r++) {
        ABT_thread t[N];
        for (long i = 0; i < N; i++) {
            atomic_store(&go[i], 0);
            atomic_store(&on_es1[i], 0);
            atomic_store(&finished[i], 0);
            atomic_store(&callbacks[i], 0);
            CHECK_OK(ABT_thread_create(shared, traveller, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
            CHECK_OK(ABT_thread_set_callback(t[i], moved, (void *)i));
        }
        for (int i = 0; i < N; i++) {
            if (i % 2 == 0)
                CHECK_OK(ABT_thread_migrate_to_xstream(t[i], es1));
            atomic_store(&go[i], 1);
        }
        for (int i = 0; i < N; i++) {
            CHECK_OK(ABT_thread_free(&t[i]));
            CHECK_EQ(atomic_load(&finished[i]), 1);
            CHECK_EQ(atomic_load(&on_es1[i]), 1);
            CHECK_EQ(atomic_load(&callbacks[i]), 1);
        }
    }
    atomic_store(&stop_locals, 1);
    for (int k = 0; k < 4; k++)
        CHECK_OK(ABT_thread_free(&locals[k]));
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(priv, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
