/* Regression (review finding on the user-pool unit map): a ULT of a user
 * pool that is never freed keeps its entry in the map from ABT_unit values
 * to work units. ABT_finalize releases its descriptor; the entry must go
 * too, or a lookup after the next ABT_init walks freed memory.
 *
 * Scenario: a user pool P (pool_user_util.h); a ULT created in P, taken out
 * of P again and never freed; finalize; init; ask what work unit P's old
 * ABT_unit value names. It names none any more: ABT_ERR_INV_UNIT and a NULL
 * thread (before the fix: the released descriptor, a use-after-free under
 * ASan). P cannot be freed while the ULT holds its unit (ABT_ERR_POOL), so
 * it is never freed either: a static handle keeps it reachable for the leak
 * checkers. */
#include "pool_user_util.h"

static up_state st;
static ABT_pool P;

static void never_runs(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&st);
    ABT_pool_user_def def = up_new_def(1);
    ABT_pool_config cfg = up_config(&st, 0);
    CHECK_OK(ABT_pool_create(def, cfg, &P));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_user_def_free(&def));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(P, never_runs, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t, &unit));
    CHECK(unit != ABT_UNIT_NULL);
    ABT_thread found = ABT_THREAD_NULL;
    CHECK_OK(ABT_unit_get_thread(unit, &found));
    CHECK(found == t);

    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(P, &popped));
    CHECK(popped == t);
    CHECK_ERR(ABT_pool_free(&P), ABT_ERR_POOL); /* t still holds P's unit */
    CHECK_OK(ABT_finalize()); /* t is never freed: finalize releases it */

    CHECK_OK(ABT_init(0, NULL));
    found = (ABT_thread)(void *)0x1;
    CHECK_ERR(ABT_unit_get_thread(unit, &found), ABT_ERR_INV_UNIT);
    CHECK(found == ABT_THREAD_NULL);
    CHECK_OK(ABT_finalize());
    free((up_unit *)unit); /* the test's own unit block: P never got it back */
    BB_TEST_END();
}
