/* ABT_xstream_set_main_sched on the caller's running ES moves the caller
 * into the new scheduler's first pool. When that pool is a user pool whose
 * create-unit callback fails for the caller, the call returns ABT_ERR_OTHER
 * (REFERENCE.md, section 2) and changes nothing: the caller stays in its
 * pool under the old scheduler, which goes on running units, and the new
 * scheduler is still the user's, free to be used elsewhere or freed; its
 * private pool is nobody's yet, open to every caller (section 7). */
#include "pool_user_util.h"

static ABT_thread refused; /* the ULT whose unit the pool will not make */

static ABT_unit picky_create_unit(ABT_pool pool, ABT_thread thread)
{
    if (thread == refused)
        return ABT_UNIT_NULL;
    return up_create_unit(pool, thread);
}

static ABT_sched new_sched;
static int replace_err = -1;
static ABT_pool pool_after;
static ABT_sched sched_after;

static void try_replace(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_self_get_thread(&refused));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_self(&es));
    replace_err = ABT_xstream_set_main_sched(es, new_sched);
    CHECK_OK(ABT_self_get_last_pool(&pool_after));
    CHECK_OK(ABT_xstream_get_main_sched(es, &sched_after));
    CHECK_OK(ABT_thread_yield()); /* the old scheduler still runs us */
}

static void nothing(void *arg) { (void)arg; }

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    up_state state;
    up_state_init(&state);
    ABT_pool_config cfg = up_config(&state, 0);
    ABT_pool user = up_new_pool_with(picky_create_unit, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));
    ABT_pool pools[2] = {user};
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pools[1]));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL,
                                    &new_sched));

    ABT_xstream es;
    ABT_pool old_pool;
    ABT_sched old_sched;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &old_pool));
    CHECK_OK(ABT_xstream_get_main_sched(es, &old_sched));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(old_pool, try_replace, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(replace_err, ABT_ERR_OTHER);
    CHECK(pool_after == old_pool);
    CHECK(sched_after == old_sched);
    CHECK_EQ(state.size, 0); /* nothing was left in the user pool */
    refused = ABT_THREAD_NULL; /* its memory may serve the next ULT */

    CHECK_OK(ABT_thread_create(old_pool, nothing, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    /* The new scheduler is still unused: another ES may take it. */
    ABT_thread in_private;
    CHECK_OK(ABT_thread_create(pools[1], nothing, NULL, ABT_THREAD_ATTR_NULL, &in_private));
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create(new_sched, &es2));
    CHECK_OK(ABT_thread_create(user, nothing, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_free(&in_private));
    CHECK_OK(ABT_xstream_free(&es2)); /* and new_sched, automatic, with it */
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&user));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
