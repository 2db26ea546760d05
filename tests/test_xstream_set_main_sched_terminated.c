/* ABT_xstream_set_main_sched on a joined (TERMINATED) ES swaps the scheduler;
 * the new one (and its pools, in the given order) is used after
 * ABT_xstream_revive. ABT_SCHED_NULL installs a new default scheduler. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int ran;
static ABT_xstream ran_on;
static ABT_pool ran_pool;

static void work(void *arg)
{
    (void)arg;
    ABT_self_get_xstream(&ran_on);
    ABT_self_get_last_pool(&ran_pool);
    atomic_fetch_add(&ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_sched old_sched;
    CHECK_OK(ABT_xstream_get_main_sched(es, &old_sched));
    CHECK_OK(ABT_xstream_join(es));

    ABT_pool p[2];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_FALSE, &p[1]));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, p, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_OK(ABT_xstream_set_main_sched(es, sched));

    ABT_sched got;
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got == sched);
    ABT_pool got_pools[3] = {ABT_POOL_NULL, ABT_POOL_NULL, ABT_POOL_NULL};
    CHECK_OK(ABT_xstream_get_main_pools(es, 3, got_pools));
    CHECK(got_pools[0] == p[0]);
    CHECK(got_pools[1] == p[1]);
    CHECK(got_pools[2] == ABT_POOL_NULL);
    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(es, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_TERMINATED);

    /* Work in the second pool runs once the ES is revived. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(p[1], work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_xstream_revive(es));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&ran), 1);
    CHECK(ran_on == es);
    CHECK(ran_pool == p[1]);

    /* Again with ABT_SCHED_NULL: a fresh default scheduler with one pool. */
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_set_main_sched(es, ABT_SCHED_NULL));
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got != ABT_SCHED_NULL);
    CHECK(got != sched);
    int n = 0;
    CHECK_OK(ABT_sched_get_num_pools(got, &n));
    CHECK_EQ(n, 1);
    ABT_pool dpool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &dpool));
    CHECK(dpool != p[0] && dpool != p[1] && dpool != ABT_POOL_NULL);
    CHECK_OK(ABT_xstream_revive(es));
    CHECK_OK(ABT_thread_create(dpool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&ran), 2);
    CHECK(ran_on == es);

    CHECK_OK(ABT_xstream_free(&es));
    /* The user's pools outlive the automatic scheduler that used them. */
    CHECK_OK(ABT_pool_free(&p[0]));
    CHECK_OK(ABT_pool_free(&p[1]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
