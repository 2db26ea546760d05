/* A move asked for while the unit is ending leaves no count behind in the
 * target pool (REFERENCE, section 9: "a ULT that ends before it moves leaves
 * no count behind"): the poster checks the unit's state after posting its
 * request (migrate.c, post_request), since the unit's end may have looked
 * at the requests just before. A leaked count shows in
 * ABT_pool_get_total_size and keeps the target's scheduler from ever
 * stopping (ABT_xstream_free hangs).
 *
 * Stress: ES1 serves pools P1 and P2; each of many short ULTs is asked,
 * over and over until it has ended, to move to the pool it is not in,
 * while it runs. Mutation testing found nothing checking the recheck;
 * this kills that mutant in most runs (a race: not in every one). */
#include "bb_test.h"

static void body(void *arg)
{
    unsigned n = (unsigned)(uintptr_t)arg;
    for (volatile unsigned i = 0; i < n; i++)
        ;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pools[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                       &pools[i]));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &es));
    int rounds = BB_TEST_SIZE(20000, 500);
    unsigned seed = 12345;
    for (int r = 0; r < rounds; r++) {
        seed = seed * 1103515245u + 12345u;
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pools[0], body, (void *)(uintptr_t)((seed >> 16) % 400),
                                   ABT_THREAD_ATTR_NULL, &t));
        for (;;) {
            ABT_pool cur = ABT_POOL_NULL;
            CHECK_OK(ABT_thread_get_last_pool(t, &cur));
            int err = ABT_thread_migrate_to_pool(t, cur == pools[0] ? pools[1] : pools[0]);
            if (err == ABT_ERR_INV_THREAD)
                break; /* it has ended */
            if (err != ABT_ERR_MIGRATION_TARGET) /* moved there meanwhile: again */
                CHECK_OK(err);
        }
        CHECK_OK(ABT_thread_free(&t));
    }
    for (int i = 0; i < 2; i++) {
        size_t total = 99;
        CHECK_OK(ABT_pool_get_total_size(pools[i], &total));
        CHECK_EQ(total, 0);
    }
    if (bb_test_failures) {
        fprintf(stderr, "a count leaked: ABT_xstream_free would hang\n");
        return 1;
    }
    CHECK_OK(ABT_xstream_free(&es));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_free(&pools[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
