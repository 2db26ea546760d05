/* ABT_xstream_get_main_pools copies min(max_pools, n) pool handles in the
 * scheduler's own pool order (not sorted by access), writes nothing beyond
 * them, accepts max_pools == 0, and refuses max_pools < 0 (INV_ARG). */
#include "bb_test.h"

#define SENTINEL ((ABT_pool)(void *)0x5a5a)

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    /* Deliberately not in PRIV < SPSC/MPSC < SPMC/MPMC order. */
    ABT_pool p[3];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_FALSE, &p[1]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &p[2]));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 3, p, ABT_SCHED_CONFIG_NULL, &es));

    ABT_pool out[5];
    for (int i = 0; i < 5; i++)
        out[i] = SENTINEL;
    CHECK_OK(ABT_xstream_get_main_pools(es, 5, out));
    CHECK(out[0] == p[0]);
    CHECK(out[1] == p[1]);
    CHECK(out[2] == p[2]);
    CHECK(out[3] == SENTINEL);
    CHECK(out[4] == SENTINEL);

    for (int i = 0; i < 5; i++)
        out[i] = SENTINEL;
    CHECK_OK(ABT_xstream_get_main_pools(es, 2, out));
    CHECK(out[0] == p[0]);
    CHECK(out[1] == p[1]);
    CHECK(out[2] == SENTINEL);

    out[0] = SENTINEL;
    CHECK_OK(ABT_xstream_get_main_pools(es, 0, out));
    CHECK(out[0] == SENTINEL);
    CHECK_ERR(ABT_xstream_get_main_pools(es, -1, out), ABT_ERR_INV_ARG);
    CHECK(out[0] == SENTINEL);

    /* Same order through the scheduler. */
    ABT_sched sched;
    CHECK_OK(ABT_xstream_get_main_sched(es, &sched));
    int n = 0;
    CHECK_OK(ABT_sched_get_num_pools(sched, &n));
    CHECK_EQ(n, 3);
    ABT_pool sp[3];
    CHECK_OK(ABT_sched_get_pools(sched, 3, 0, sp));
    CHECK(sp[0] == p[0] && sp[1] == p[1] && sp[2] == p[2]);

    CHECK_OK(ABT_xstream_free(&es));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_pool_free(&p[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
