/* A call that makes a scheduler over the caller's pools and then fails
 * leaves those pools to the caller, even automatic ones no other scheduler
 * holds: the caller still has their handles (Argobots 1.2 does the same).
 * The pools the scheduler made itself go with it. Three such calls:
 *
 *   ABT_xstream_create_basic        the ES cannot be made (one of the pools
 *                                   is another ES's private pool)
 *   ABT_xstream_set_main_sched_basic the same reason
 *   ABT_sched_create                the definition's init fails
 *
 * Each used to free the caller's automatic pools, which the caller then
 * used and freed again. Each case gives a user pool (whose free callback
 * counts, so that the Release build sees it) and a built-in one (which
 * AddressSanitizer watches). */
#include "pool_user_util.h"

static int fail_init(ABT_sched sched, ABT_sched_config config)
{
    (void)sched;
    (void)config;
    return ABT_ERR_OTHER;
}

static void never_run(ABT_sched sched)
{
    (void)sched;
    CHECK(0);
}

typedef struct {
    up_state state;
    ABT_pool user, builtin;
} given_pools;

static void make_given(given_pools *g)
{
    up_state_init(&g->state);
    ABT_pool_config cfg = up_config(&g->state, 1);
    g->user = up_new_pool_with(NULL, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &g->builtin));
}

/* After the failed call: both pools are alive and still the caller's to use
 * and free. */
static void check_still_given(given_pools *g)
{
    CHECK_EQ(atomic_load(&g->state.n_free), 0);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(g->builtin, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_get_size(g->user, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_free(&g->user));
    CHECK_EQ(atomic_load(&g->state.n_free), 1);
    CHECK_OK(ABT_pool_free(&g->builtin));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool priv; /* ES 1's: no other main scheduler may take it */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &es1));
    given_pools g;

    make_given(&g);
    ABT_pool three[3] = {g.user, g.builtin, priv};
    ABT_xstream es2 = ABT_XSTREAM_NULL;
    CHECK_EQ(ABT_xstream_create_basic(ABT_SCHED_BASIC, 3, three, ABT_SCHED_CONFIG_NULL, &es2),
             ABT_ERR_INV_POOL_ACCESS);
    CHECK(es2 == ABT_XSTREAM_NULL);
    check_still_given(&g);

    make_given(&g);
    three[0] = g.user;
    three[1] = g.builtin;
    ABT_xstream self;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_EQ(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 3, three),
             ABT_ERR_INV_POOL_ACCESS);
    check_still_given(&g);

    make_given(&g);
    ABT_pool two[2] = {g.user, g.builtin};
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .init = fail_init, .run = never_run};
    ABT_sched sched = ABT_SCHED_NULL;
    CHECK_EQ(ABT_sched_create(&def, 2, two, ABT_SCHED_CONFIG_NULL, &sched), ABT_ERR_OTHER);
    check_still_given(&g);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&priv));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
