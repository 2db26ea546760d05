/* Regression (review finding on blocked counts): ABT_thread_set_associated_pool
 * on a suspended ULT must not corrupt the pools' counts of blocked units.
 *
 * Scenario: X runs on a secondary ES (default scheduler, one pool P served
 * by that ES only) and suspends itself: P counts one blocked unit, which
 * keeps the ES from finishing. While X is blocked, the primary ULT
 * re-associates it with the primary ES's main pool, then resumes it: X goes
 * to the new pool and finishes on the primary ES. Joining and freeing the
 * secondary ES must then complete.
 *
 * What used to go wrong: the blocked count was taken in P but given back to
 * the pool X was associated with at resume time, so P kept a phantom blocked
 * unit forever and ABT_xstream_join never returned (watchdog). */
#include "regress_util.h"

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es, self;
    ABT_pool p, main_pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &p));
    rg_pools(&self, &main_pool);

    rg_start_x(p);

    /* Blocked, hence in no pool: re-association is allowed. */
    CHECK_OK(ABT_thread_set_associated_pool(X, main_pool));
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(X, &last));
    CHECK(last == main_pool);

    CHECK_OK(ABT_thread_resume(X));
    CHECK_OK(ABT_thread_free(&X)); /* X runs here, on the primary ES */
    CHECK_EQ(atomic_load(&x_done), 1);
    CHECK(x_pool_after == main_pool);
    CHECK(x_xs_after == self);

    CHECK_OK(ABT_xstream_join(es)); /* used to hang: P kept a blocked unit */
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
