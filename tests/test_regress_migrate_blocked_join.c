/* Regression (review finding on blocked counts and migration): a suspended
 * ULT with a pending migration to another pool, once resumed, moves there;
 * the ES it was blocked on must then be able to finish, so joining it
 * returns.
 *
 * Scenario: X runs on a secondary BASIC_WAIT ES (one pool P served by that
 * ES only) and suspends itself: P counts one blocked unit, which holds off
 * FINISH. The primary ULT asks to migrate X to the primary's main pool
 * (ABT_SUCCESS: the move happens when X is resumed), creates R in that pool
 * to resume X 0.3 s later, and joins the secondary ES: that ES goes to sleep
 * waiting for X. R resumes X, which goes straight to the target pool and
 * finishes on the primary ES.
 *
 * What used to go wrong: the blocked count of P dropped without anything
 * waking P's sleeping scheduler (the unit went elsewhere, so no push into P
 * rang its bell), and the join never returned (watchdog). */
#include "regress_util.h"

static void r_body(void *arg)
{
    (void)arg;
    usleep(300000); /* let the joined ES go to sleep first */
    ABT_thread_resume(X);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es, self;
    ABT_pool p, main_pool;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                      &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &p));
    rg_pools(&self, &main_pool);

    rg_start_x(p);

    CHECK_OK(ABT_thread_migrate_to_pool(X, main_pool)); /* pending until resumed */
    ABT_thread R;
    CHECK_OK(ABT_thread_create(main_pool, r_body, NULL, ABT_THREAD_ATTR_NULL, &R));

    CHECK_OK(ABT_xstream_join(es)); /* used to hang here */

    CHECK_OK(ABT_thread_free(&R));
    CHECK_OK(ABT_thread_free(&X));
    CHECK_EQ(atomic_load(&x_done), 1);
    CHECK(x_pool_after == main_pool);
    CHECK(x_xs_after == self);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
