/* ABT_init after a full ABT_finalize works, several times in a row, and each
 * new runtime starts its IDs afresh: thread IDs (assigned on first query),
 * pool IDs, and ES ranks. */
#include "bb_test.h"

static void noop(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    for (int round = 0; round < 5; round++) {
        CHECK_OK(ABT_init(0, NULL));
        CHECK_OK(ABT_initialized());

        ABT_xstream primary;
        CHECK_OK(ABT_xstream_self(&primary));
        ABT_bool is_primary = ABT_FALSE;
        CHECK_OK(ABT_xstream_is_primary(primary, &is_primary));
        CHECK_EQ(is_primary, ABT_TRUE);
        int rank = -1;
        CHECK_OK(ABT_xstream_self_rank(&rank));
        CHECK_EQ(rank, 0);

        /* The primary pool was the first pool of this runtime. */
        ABT_pool main_pool;
        CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
        int id = -1;
        CHECK_OK(ABT_pool_get_id(main_pool, &id));
        CHECK_EQ(id, 0);
        ABT_pool pool;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
        CHECK_OK(ABT_pool_get_id(pool, &id));
        CHECK_EQ(id, 1);

        /* Thread IDs: dense, in order of first query, from 0. */
        ABT_thread a, b;
        CHECK_OK(ABT_thread_create(main_pool, noop, NULL, ABT_THREAD_ATTR_NULL, &a));
        CHECK_OK(ABT_thread_create(main_pool, noop, NULL, ABT_THREAD_ATTR_NULL, &b));
        ABT_unit_id ida = 99, idb = 99;
        CHECK_OK(ABT_thread_get_id(b, &idb));
        CHECK_OK(ABT_thread_get_id(a, &ida));
        CHECK_EQ(idb, 0);
        CHECK_EQ(ida, 1);
        CHECK_OK(ABT_thread_free(&a));
        CHECK_OK(ABT_thread_free(&b));

        /* A new ES gets rank 1 again. */
        ABT_xstream es;
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
        CHECK_OK(ABT_xstream_get_rank(es, &rank));
        CHECK_EQ(rank, 1);
        CHECK_OK(ABT_xstream_free(&es));

        CHECK_OK(ABT_pool_free(&pool));
        CHECK_OK(ABT_finalize());
        CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    }
    BB_TEST_END();
}
