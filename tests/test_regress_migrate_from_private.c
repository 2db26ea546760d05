/* Regression: migrating ULTs out of another ES's private pool. ES 1's main
 * pool is private (ABT_POOL_ACCESS_PRIV: only ES 1 touches it, without a
 * lock); ULTs yield in it while the primary ULT migrates them one by one to
 * ES 2's shared pool. The primary once took a ready ULT straight out of the
 * private list, racing with ES 1's pops and pushes on it (ThreadSanitizer
 * reports it; a corrupt list could lose or duplicate a ULT). Now the ULT
 * gets a request that ES 1 serves when it next pops it. Checks: every
 * migration succeeds, every ULT ends up on ES 2 and finishes exactly once,
 * its migration callback ran once, and ES 1's pool is empty at the end. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 64

static atomic_int stop, finished[N], on_es2[N], callbacks[N];

static void moved(ABT_thread thread, void *arg)
{
    (void)thread;
    atomic_fetch_add(&callbacks[(long)arg], 1);
}

static void spinner(void *arg)
{
    long i = (long)arg;
    while (!atomic_load(&stop) || !atomic_load(&on_es2[i])) {
        int rank = -1;
        ABT_self_get_xstream_rank(&rank);
        if (rank == 2)
            atomic_store(&on_es2[i], 1);
        ABT_thread_yield();
    }
    atomic_fetch_add(&finished[i], 1);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool priv, shared;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
    /* Made before ES 1 runs: afterwards only ES 1 may push into its pool. */
    ABT_thread t[N];
    for (long i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(priv, spinner, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_thread_set_callback(t[i], moved, (void *)i));
    }
    ABT_xstream es1, es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &es1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &es2));
    CHECK_OK(ABT_xstream_set_rank(es1, 1));
    CHECK_OK(ABT_xstream_set_rank(es2, 2));
    long other = 0;
    for (int i = 0; i < N; i++) {
        int ret = ABT_thread_migrate_to_pool(t[i], shared);
        if (ret != ABT_SUCCESS && other++ < 5)
            fprintf(stderr, "migration of ULT %d returned %d\n", i, ret);
    }
    CHECK_EQ(other, 0);
    atomic_store(&stop, 1);
    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(atomic_load(&finished[i]), 1);
        CHECK_EQ(atomic_load(&on_es2[i]), 1);
        CHECK_EQ(atomic_load(&callbacks[i]), 1);
    }
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(priv, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
