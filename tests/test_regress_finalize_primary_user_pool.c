/* Regression (review finding on ABT_finalize): when the primary ULT is
 * associated with a user-defined pool (it replaced the primary ES's main
 * scheduler with one over that pool), ABT_finalize must give the primary
 * ULT's unit back to the pool (its free_unit callback) before the pool
 * itself is freed, and touch nothing afterwards.
 *
 * Scenario: a user pool P (pool_user_util.h callbacks, state kept by the
 * test so it can be read after the pool is gone; free_unit notes any call
 * that comes after P's free callback); the primary ULT calls
 * ABT_xstream_set_main_sched_basic(primary, BASIC, 1, &P), which makes a
 * unit of P for it; one more ULT is left in P for finalize to run.
 *
 * What used to go wrong: finalize freed the primary ES's scheduler and P
 * first, then released the primary ULT, whose unit was given back through
 * the freed pool (use-after-free under ASan, garbage otherwise). */
#include "pool_user_util.h"

static int ran;
static up_state st;
static atomic_int late_unit_frees; /* free_unit calls after P's free callback */

static void work(void *arg)
{
    (void)arg;
    ran = 1;
}

/* up_free_unit, unless P is gone already: then only count it (asking the
 * freed pool for its data is the bug itself). */
static void checked_free_unit(ABT_pool pool, ABT_unit unit)
{
    if (atomic_load(&st.n_free) > 0) {
        atomic_fetch_add(&late_unit_frees, 1);
        free((up_unit *)unit);
        return;
    }
    up_free_unit(pool, unit);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&st);
    st.tag = 'P';
    ABT_pool_user_def def = ABT_POOL_USER_DEF_NULL;
    CHECK_OK(ABT_pool_user_def_create(up_create_unit, checked_free_unit, up_is_empty, up_pop,
                                      up_push, &def));
    CHECK_OK(ABT_pool_user_def_set_init(def, up_init));
    CHECK_OK(ABT_pool_user_def_set_free(def, up_free));
    CHECK_OK(ABT_pool_user_def_set_get_size(def, up_get_size));
    ABT_pool_config cfg = up_config(&st, -1);
    ABT_pool P;
    CHECK_OK(ABT_pool_create(def, cfg, &P));
    CHECK_OK(ABT_pool_config_free(&cfg));

    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &P));
    ABT_pool cur = ABT_POOL_NULL;
    CHECK_OK(ABT_self_get_last_pool(&cur));
    CHECK(cur == P);
    CHECK(atomic_load(&st.n_create) >= 1); /* the primary ULT's unit */

    CHECK_OK(ABT_thread_create(P, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_finalize());

    CHECK_EQ(ran, 1);
    CHECK_EQ(atomic_load(&st.n_free), 1); /* finalize freed P ... */
    /* ... after every unit it made went back, each to P. */
    CHECK_EQ(atomic_load(&st.n_free_unit), atomic_load(&st.n_create));
    CHECK_EQ(atomic_load(&st.n_free_unit_wrong_pool), 0);
    CHECK_EQ(atomic_load(&late_unit_frees), 0);
    CHECK_OK(ABT_pool_user_def_free(&def));
    BB_TEST_END();
}
