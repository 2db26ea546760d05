/* ABT_barrier with many ULTs on a single ES (the primary, the only ES): the
 * waiters block (state BLOCKED, out of the pool) instead of spinning, so the
 * last arrival can run and release them all; the barrier is cyclic, and no
 * ULT leaves a round before all have arrived in it. */
#include "bb_test.h"
#include <stdatomic.h>

#define NULTS 64
#define N (NULTS + 1) /* + main ULT */
#define ROUNDS 4

static ABT_barrier barrier;
static atomic_int arrived[ROUNDS], early;

static void worker(void *arg)
{
    (void)arg;
    for (int r = 0; r < ROUNDS; r++) {
        atomic_fetch_add(&arrived[r], 1);
        CHECK_OK(ABT_barrier_wait(barrier));
        if (atomic_load(&arrived[r]) != N)
            atomic_fetch_add(&early, 1);
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_barrier_create(N, &barrier));

    ABT_thread ts[NULTS];
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_create(pool, worker, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    for (int r = 0; r < ROUNDS; r++) {
        /* Let all the others arrive and check they block. */
        for (int i = 0; i < NULTS; i++) {
            ABT_thread_state st = ABT_THREAD_STATE_READY;
            for (int spins = 0; st != ABT_THREAD_STATE_BLOCKED && spins < 100000; spins++) {
                ABT_thread_yield();
                CHECK_OK(ABT_thread_get_state(ts[i], &st));
            }
            CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
        }
        size_t size = 99;
        CHECK_OK(ABT_pool_get_size(pool, &size));
        CHECK_EQ(size, 0);
        CHECK_EQ(atomic_load(&arrived[r]), NULTS);
        atomic_fetch_add(&arrived[r], 1);
        CHECK_OK(ABT_barrier_wait(barrier)); /* last: returns at once */
    }
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_free(&ts[i]));
    CHECK_EQ(atomic_load(&early), 0);

    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
