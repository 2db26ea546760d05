/* A move asked for while its ULT is on its way into a pool happens at once
 * (audit 16). A ULT on ES 1 yields in a loop; the main ULT asks to move it
 * to P2, a pool no scheduler serves (a request: it is running), then at
 * once to P0, the main ES's pool, and frees it, which runs it there.
 *
 * - The second move could come while ES 1 had made the ULT ready but not
 *   yet pushed it into P2: the take-out failed, and the move became a
 *   request that the pusher had already looked for. The ULT then sat in P2
 *   with the request pending, and the free waited for ever (the watchdog
 *   fails the test). Now a shared pool's push looks for a request under
 *   its lock, and the mover tries the take-out again after posting one.
 * - ES 1 pushed the ULT into P2 and dropped P2's count of units to come
 *   after the push: in between, the ULT could be moved on, run and freed,
 *   and ABT_pool_free(P2) refused a pool that nothing would ever enter.
 *   Both now happen under one hold of P2's lock.
 * - (Audit 17.) With P2 a private pool, which no scheduler holds and so
 *   has no home, ES 1's push and the main ULT's take-out changed its list
 *   at the same time without a lock, and its push never looked for a
 *   request: the first hang again. Such a pool now works as a shared one.
 * Each round takes P2 of another kind: FIFO or RANDWS, shared or private. */
#include "bb_test.h"

#include <stdatomic.h>

static atomic_int stage;

static void yield_until_released(void *arg)
{
    (void)arg;
    atomic_store(&stage, 1);
    while (atomic_load(&stage) != 2)
        ABT_thread_yield();
}

int main(void)
{
    BB_TEST_BEGIN(120);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self, es1;
    ABT_pool P0, P1;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &P0));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &P1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &P1, ABT_SCHED_CONFIG_NULL, &es1));

    int rounds = BB_TEST_SIZE(8000, 600);
    for (int i = 0; i < rounds; i++) {
        ABT_pool P2;
        CHECK_OK(ABT_pool_create_basic(i & 1 ? ABT_POOL_RANDWS : ABT_POOL_FIFO,
                                       i & 2 ? ABT_POOL_ACCESS_PRIV : ABT_POOL_ACCESS_MPMC,
                                       ABT_FALSE, &P2));
        atomic_store(&stage, 0);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(P1, yield_until_released, NULL, ABT_THREAD_ATTR_NULL, &t));
        while (atomic_load(&stage) < 1)
            ; /* it runs on ES 1 */
        CHECK_OK(ABT_thread_migrate_to_pool(t, P2));
        CHECK_OK(ABT_thread_migrate_to_pool(t, P0));
        atomic_store(&stage, 2);
        CHECK_OK(ABT_thread_free(&t));
        size_t total;
        CHECK_OK(ABT_pool_get_total_size(P2, &total));
        if (total != 0)
            BB_FAIL_AT("round %d: P2 still counts %zu units after the ULT was freed", i, total);
        CHECK_OK(ABT_pool_free(&P2));
    }

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
