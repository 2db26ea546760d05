/* Migrating into a private pool that only a stacked scheduler holds. Such a
 * pool has no home (no main scheduler holds it), so a migration from
 * another ES leaves the unit on the pool's incoming stack, and the stacked
 * scheduler takes it in at its next event check. Checks: the migrated ULTs
 * run on ES 1, where the stacked scheduler runs, and each finishes once,
 * its callback having run once. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 16

static atomic_int stop_keeper, finished[N], callbacks[N];

static void moved(ABT_thread thread, void *arg)
{
    (void)thread;
    atomic_fetch_add(&callbacks[(long)arg], 1);
}

static void traveller(void *arg)
{
    int rank = -1;
    CHECK_OK(ABT_self_get_xstream_rank(&rank));
    CHECK_EQ(rank, 1);
    atomic_fetch_add(&finished[(long)arg], 1);
}

/* Keeps the stacked scheduler busy, so that it does not stop for lack of
 * work before the travellers arrive. */
static void keeper(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_keeper))
        ABT_thread_yield();
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool shared, priv;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv));
    ABT_thread keeper_ult;
    CHECK_OK(ABT_thread_create(priv, keeper, NULL, ABT_THREAD_ATTR_NULL, &keeper_ult));
    ABT_sched stacked;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &stacked));
    CHECK_OK(ABT_pool_add_sched(shared, stacked)); /* automatic: freed when it stops */
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &es1));
    CHECK_OK(ABT_xstream_set_rank(es1, 1));

    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));
    ABT_thread t[N];
    for (long i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(main_pool, traveller, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_thread_set_callback(t[i], moved, (void *)i));
        CHECK_OK(ABT_thread_migrate_to_pool(t[i], priv));
    }
    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(atomic_load(&finished[i]), 1);
        CHECK_EQ(atomic_load(&callbacks[i]), 1);
    }
    atomic_store(&stop_keeper, 1);
    CHECK_OK(ABT_thread_free(&keeper_ult));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&priv));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
