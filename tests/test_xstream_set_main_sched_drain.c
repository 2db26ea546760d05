/* ABT_xstream_set_main_sched on a running secondary ES, called from a ULT on
 * that ES, with a new scheduler over different pools: the ready work left in
 * the old pool (units that yield) all runs before the call returns; the
 * caller then continues on the same ES in the new scheduler's first pool
 * (ABT_self_get_last_pool), also after yielding; the ES keeps running work
 * pushed into the new pools. The old scheduler is retired at the switch:
 * freed if automatic (its pool is released), else left for ABT_sched_free.
 * Errors from a ULT on the ES: a scheduler with 0 pools (predefined or user)
 * -> ABT_ERR_INV_SCHED, a scheduler already in use -> ABT_ERR_INV_SCHED. */
#include "bb_test.h"
#include <stdatomic.h>

#define K 12

static ABT_xstream es;
static ABT_sched new_sched, zero_basic, zero_user;
static ABT_pool old_pool, new_pools[2];
static atomic_int old_done, new_done;
static int ret_zero_basic = -1, ret_zero_user = -1, ret_in_use = -1, ret_set = -1;
static int old_done_at_return = -1;
static ABT_xstream after_xs[4];
static ABT_pool after_pool[4];
static ABT_xstream old_xs[K];
static ABT_xstream new_xs;

static void old_work(void *arg)
{
    long i = (long)arg;
    for (int k = 0; k < 3; k++)
        ABT_thread_yield();
    ABT_self_get_xstream(&old_xs[i]);
    atomic_fetch_add(&old_done, 1);
}

static void new_work(void *arg)
{
    (void)arg;
    ABT_self_get_xstream(&new_xs);
    atomic_fetch_add(&new_done, 1);
}

static void replacer(void *arg)
{
    (void)arg;
    for (long i = 0; i < K; i++)
        ABT_thread_create(old_pool, old_work, (void *)i, ABT_THREAD_ATTR_NULL, NULL);
    ret_zero_basic = ABT_xstream_set_main_sched(es, zero_basic);
    ret_zero_user = ABT_xstream_set_main_sched(es, zero_user);
    ABT_sched cur = ABT_SCHED_NULL;
    ABT_xstream_get_main_sched(es, &cur);
    ret_in_use = ABT_xstream_set_main_sched(es, cur);
    ret_set = ABT_xstream_set_main_sched(es, new_sched);
    old_done_at_return = atomic_load(&old_done);
    ABT_self_get_xstream(&after_xs[0]);
    ABT_self_get_last_pool(&after_pool[0]);
    for (int k = 1; k < 4; k++) {
        ABT_thread_yield();
        ABT_self_get_xstream(&after_xs[k]);
        ABT_self_get_last_pool(&after_pool[k]);
    }
}

static void nothing(ABT_sched sched)
{
    (void)sched;
}

static void one_round(int old_automatic)
{
    atomic_store(&old_done, 0);
    atomic_store(&new_done, 0);
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &old_pool));
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, old_automatic,
                                     ABT_sched_config_var_end));
    ABT_sched old_sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &old_pool, cfg, &old_sched));
    CHECK_OK(ABT_sched_config_free(&cfg));
    CHECK_OK(ABT_xstream_create(old_sched, &es));

    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                       &new_pools[i]));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, new_pools, ABT_SCHED_CONFIG_NULL,
                                    &new_sched));
    ABT_pool dummy = ABT_POOL_NULL;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, &dummy, ABT_SCHED_CONFIG_NULL,
                                    &zero_basic));
    int n = -1;
    CHECK_OK(ABT_sched_get_num_pools(zero_basic, &n));
    CHECK_EQ(n, 0);
    ABT_sched_def def = {.run = nothing};
    CHECK_OK(ABT_sched_create(&def, 0, NULL, ABT_SCHED_CONFIG_NULL, &zero_user));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(old_pool, replacer, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));

    CHECK_EQ(ret_zero_basic, ABT_ERR_INV_SCHED);
    CHECK_EQ(ret_zero_user, ABT_ERR_INV_SCHED);
    CHECK_EQ(ret_in_use, ABT_ERR_INV_SCHED);
    CHECK_EQ(ret_set, ABT_SUCCESS);
    CHECK_EQ(old_done_at_return, K);
    for (int i = 0; i < K; i++)
        CHECK(old_xs[i] == es);
    for (int k = 0; k < 4; k++) {
        CHECK(after_xs[k] == es);
        CHECK(after_pool[k] == new_pools[0]);
    }
    ABT_sched got;
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got == new_sched);
    ABT_pool mp[2] = {ABT_POOL_NULL, ABT_POOL_NULL};
    CHECK_OK(ABT_xstream_get_main_pools(es, 2, mp));
    CHECK(mp[0] == new_pools[0] && mp[1] == new_pools[1]);
    ABT_xstream_state st;
    CHECK_OK(ABT_xstream_get_state(es, &st));
    CHECK_EQ(st, ABT_XSTREAM_STATE_RUNNING);

    /* The old scheduler was retired at the switch. */
    if (!old_automatic) {
        ABT_pool h = old_pool;
        CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
        CHECK_OK(ABT_sched_free(&old_sched));
    }
    CHECK_OK(ABT_pool_free(&old_pool));

    /* The ES works with the new pools. */
    ABT_thread w[2];
    CHECK_OK(ABT_thread_create(new_pools[1], new_work, NULL, ABT_THREAD_ATTR_NULL, &w[0]));
    CHECK_OK(ABT_thread_create(new_pools[0], new_work, NULL, ABT_THREAD_ATTR_NULL, &w[1]));
    CHECK_OK(ABT_thread_free(&w[0]));
    CHECK_OK(ABT_thread_free(&w[1]));
    CHECK_EQ(atomic_load(&new_done), 2);
    CHECK(new_xs == es);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&new_pools[0]));
    CHECK_OK(ABT_pool_free(&new_pools[1]));
    CHECK_OK(ABT_sched_free(&zero_basic));
    CHECK_OK(ABT_sched_free(&zero_user));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    one_round(1);
    one_round(0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
