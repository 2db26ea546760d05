/* ABT_xstream_create with ABT_SCHED_NULL starts a RUNNING secondary ES with
 * the smallest free rank, a default scheduler with one MPMC pool; the query
 * routines (self, self_rank, get_rank, is_primary, equal, get_num,
 * get_main_sched, get_main_pools, get_state) report it, and ABT_xstream_free
 * releases it and clears the handle. */
#include "bb_test.h"

static ABT_xstream seen_self;
static int seen_rank = -1, seen_self_primary = -1;

static void probe(void *arg)
{
    (void)arg;
    if (ABT_xstream_self(&seen_self) != ABT_SUCCESS)
        return;
    if (ABT_xstream_self_rank(&seen_rank) != ABT_SUCCESS)
        return;
    ABT_bool b;
    if (ABT_xstream_is_primary(seen_self, &b) == ABT_SUCCESS)
        seen_self_primary = b;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    ABT_bool b = ABT_FALSE;
    CHECK_OK(ABT_xstream_is_primary(primary, &b));
    CHECK_EQ(b, ABT_TRUE);
    ABT_xstream_state state = ABT_XSTREAM_STATE_TERMINATED;
    CHECK_OK(ABT_xstream_get_state(primary, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);
    int num = 0;
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 1);

    ABT_xstream es = (ABT_xstream)(void *)0x1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK(es != ABT_XSTREAM_NULL);
    CHECK(es != primary);
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 2);
    CHECK_OK(ABT_xstream_get_state(es, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);
    int rank = -1;
    CHECK_OK(ABT_xstream_get_rank(es, &rank));
    CHECK_EQ(rank, 1);
    CHECK_OK(ABT_xstream_is_primary(es, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_xstream_equal(es, es, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_xstream_equal(es, primary, &b));
    CHECK_EQ(b, ABT_FALSE);

    /* Default scheduler: BASIC with one FIFO MPMC pool. */
    ABT_sched sched = ABT_SCHED_NULL;
    CHECK_OK(ABT_xstream_get_main_sched(es, &sched));
    CHECK(sched != ABT_SCHED_NULL);
    int npools = 0;
    CHECK_OK(ABT_sched_get_num_pools(sched, &npools));
    CHECK_EQ(npools, 1);
    ABT_pool pools[2] = {ABT_POOL_NULL, ABT_POOL_NULL};
    CHECK_OK(ABT_xstream_get_main_pools(es, 2, pools));
    CHECK(pools[0] != ABT_POOL_NULL);
    CHECK(pools[1] == ABT_POOL_NULL);
    ABT_pool_access access = ABT_POOL_ACCESS_PRIV;
    CHECK_OK(ABT_pool_get_access(pools[0], &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);
    ABT_pool from_sched = ABT_POOL_NULL;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &from_sched));
    CHECK(from_sched == pools[0]);

    /* The primary ES's pool is a different one, also MPMC. */
    ABT_pool ppool;
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &ppool));
    CHECK(ppool != pools[0]);
    CHECK_OK(ABT_pool_get_access(ppool, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC);

    /* Seen from inside. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pools[0], probe, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK(seen_self == es);
    CHECK_EQ(seen_rank, 1);
    CHECK_EQ(seen_self_primary, ABT_FALSE);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK(es == ABT_XSTREAM_NULL);
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 1);
    CHECK_ERR(ABT_xstream_free(&es), ABT_ERR_INV_XSTREAM);
    ABT_xstream p = primary;
    CHECK_ERR(ABT_xstream_free(&p), ABT_ERR_INV_XSTREAM);
    CHECK(p == primary);

    /* NULL handles. */
    CHECK_ERR(ABT_xstream_get_rank(ABT_XSTREAM_NULL, &rank), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_state(ABT_XSTREAM_NULL, &state), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_is_primary(ABT_XSTREAM_NULL, &b), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_main_sched(ABT_XSTREAM_NULL, &sched), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_main_pools(ABT_XSTREAM_NULL, 1, pools), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_cancel(ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_join(ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_revive(ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_rank(ABT_XSTREAM_NULL, 3), ABT_ERR_INV_XSTREAM);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
