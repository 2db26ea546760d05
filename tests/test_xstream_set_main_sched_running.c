/* A ULT running on an ES replaces that ES's main scheduler: afterwards it
 * runs on the same ES, associated with pool 0 of the new scheduler, and work
 * in the new pools runs there. Also on the primary ES from the primary ULT
 * (with ABT_xstream_set_main_sched_basic), after which finalize still works. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_xstream es;
static ABT_pool newpool[2];
static ABT_sched newsched;
static int set_ret = -1;
static ABT_xstream after_xs;
static ABT_pool after_pool;
static atomic_int work_done;
static ABT_xstream work_xs;

static void work(void *arg)
{
    (void)arg;
    ABT_self_get_xstream(&work_xs);
    atomic_fetch_add(&work_done, 1);
}

static void replacer(void *arg)
{
    (void)arg;
    set_ret = ABT_xstream_set_main_sched(es, newsched);
    ABT_self_get_xstream(&after_xs);
    ABT_self_get_last_pool(&after_pool);
    /* Yield a few times: we keep coming back under the new scheduler. */
    for (int i = 0; i < 3; i++)
        ABT_thread_yield();
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool oldpool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &oldpool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &newpool[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &newpool[1]));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, newpool, ABT_SCHED_CONFIG_NULL,
                                    &newsched));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(oldpool, replacer, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(set_ret, ABT_SUCCESS);
    CHECK(after_xs == es);
    CHECK(after_pool == newpool[0]);
    ABT_sched got;
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got == newsched);
    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(es, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);

    CHECK_OK(ABT_thread_create(newpool[1], work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&work_done), 1);
    CHECK(work_xs == es);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&newpool[0]));
    CHECK_OK(ABT_pool_free(&newpool[1]));

    /* The primary ES, from the primary ULT. */
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    ABT_pool q;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    CHECK_OK(ABT_xstream_set_main_sched_basic(primary, ABT_SCHED_BASIC, 1, &q));
    ABT_pool cur = ABT_POOL_NULL;
    CHECK_OK(ABT_self_get_last_pool(&cur));
    CHECK(cur == q);
    ABT_pool main_pool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK(main_pool == q);
    CHECK_OK(ABT_thread_create(q, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&work_done), 2);
    CHECK(work_xs == primary);
    /* Left over work is run by finalize from the new pool; q is freed by it. */
    CHECK_OK(ABT_thread_create(q, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&work_done), 3);
    BB_TEST_END();
}
