/* Migrations between ESs that each pop a private pool of their own (found
 * by a stress audit: ThreadSanitizer saw a race in 3 of 3 runs). Movers on
 * every ES keep migrating 8 yielding ULTs to random ESs while the ESs pop
 * them and serve their pending migrations. A remove from a private pool
 * used to read the unit's own pool and links, which another ES may be
 * changing while it moves the unit into that pool; it now finds the unit
 * through the pool's list alone. Checks every return code, that every ULT
 * ends, and that each migration callback came from a migration. */
#include "bb_test.h"
#include <stdatomic.h>

#define NES 3
#define MOVERS_PER_ES 2
#define TARGETS 8

static ABT_xstream es[NES];
static ABT_thread targets[TARGETS];
static atomic_int stop, bad_returns;
static atomic_long moves, callbacks;
static long iters;

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void on_migrate(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
    atomic_fetch_add(&callbacks, 1);
}

static void target(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop))
        CHECK_OK(ABT_thread_yield());
}

static void mover(void *arg)
{
    uint64_t s = (uintptr_t)arg * 2654435761u + 1;
    for (long i = 0; i < iters; i++) {
        ABT_thread t = targets[next_random(&s) % TARGETS];
        int r = ABT_thread_migrate_to_xstream(t, es[next_random(&s) % NES]);
        if (r == ABT_SUCCESS)
            atomic_fetch_add(&moves, 1);
        else if (r != ABT_ERR_MIGRATION_TARGET)
            atomic_fetch_add(&bad_returns, 1);
        if (next_random(&s) & 1)
            CHECK_OK(ABT_thread_yield());
    }
}

int main(void)
{
    BB_TEST_BEGIN(120);
    CHECK_OK(ABT_init(0, NULL));
    iters = BB_TEST_SIZE(3000, 1000);
    ABT_pool pools[NES];
    for (int e = 0; e < NES; e++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pools[e]));
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_set_main_sched_basic(es[0], ABT_SCHED_BASIC, 1, &pools[0]));
    for (int e = 1; e < NES; e++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pools[e], ABT_SCHED_CONFIG_NULL,
                                          &es[e]));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_callback(attr, on_migrate, NULL));
    for (int i = 0; i < TARGETS; i++)
        CHECK_OK(ABT_thread_create(pools[0], target, NULL, attr, &targets[i]));

    /* Movers start on the primary ES; those of another ES move there first. */
    ABT_thread movers[NES * MOVERS_PER_ES];
    int k = 0;
    for (int e = 0; e < NES; e++)
        for (int j = 0; j < MOVERS_PER_ES; j++, k++) {
            CHECK_OK(ABT_thread_create(pools[0], mover, (void *)(uintptr_t)(k + 1),
                                       ABT_THREAD_ATTR_NULL, &movers[k]));
            if (e != 0)
                CHECK_OK(ABT_thread_migrate_to_xstream(movers[k], es[e]));
        }
    CHECK_OK(ABT_thread_free_many(k, movers));
    atomic_store(&stop, 1);
    CHECK_OK(ABT_thread_free_many(TARGETS, targets));
    CHECK_OK(ABT_thread_attr_free(&attr));
    for (int e = 1; e < NES; e++)
        CHECK_OK(ABT_xstream_free(&es[e]));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&bad_returns), 0);
    CHECK(atomic_load(&moves) > 0);
    CHECK(atomic_load(&callbacks) <= atomic_load(&moves));
    BB_TEST_END();
}
