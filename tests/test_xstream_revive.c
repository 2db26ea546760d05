/* ABT_xstream_revive restarts a joined ES with the same scheduler and pools,
 * several times; a running ES, the primary ES and NULL are refused with
 * ABT_ERR_INV_XSTREAM. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int count;
static ABT_xstream where[8];

static void work(void *arg)
{
    long i = (long)arg;
    ABT_thread_yield();
    ABT_xstream_self(&where[i]);
    atomic_fetch_add(&count, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool pool;
    ABT_sched sched;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_xstream_get_main_sched(es, &sched));
    CHECK_ERR(ABT_xstream_revive(es), ABT_ERR_INV_XSTREAM); /* running */
    CHECK_ERR(ABT_xstream_revive(primary), ABT_ERR_INV_XSTREAM);

    for (long round = 0; round < 6; round++) {
        CHECK_OK(ABT_xstream_join(es));
        ABT_xstream_state state;
        CHECK_OK(ABT_xstream_get_state(es, &state));
        CHECK_EQ(state, ABT_XSTREAM_STATE_TERMINATED);
        /* Work pushed while terminated waits for the revive. */
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, work, (void *)round, ABT_THREAD_ATTR_NULL, &t));
        usleep(1000);
        CHECK_EQ(atomic_load(&count), round);
        CHECK_OK(ABT_xstream_revive(es));
        CHECK_OK(ABT_xstream_get_state(es, &state));
        CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);
        CHECK_ERR(ABT_xstream_revive(es), ABT_ERR_INV_XSTREAM);
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(atomic_load(&count), round + 1);
        CHECK(where[round] == es);
        /* Same scheduler and pool after the revive. */
        ABT_sched s2;
        ABT_pool p2;
        CHECK_OK(ABT_xstream_get_main_sched(es, &s2));
        CHECK_OK(ABT_xstream_get_main_pools(es, 1, &p2));
        CHECK(s2 == sched);
        CHECK(p2 == pool);
    }
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
