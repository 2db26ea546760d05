/* Pool lifetime: ABT_pool_free of a pool held by a scheduler is refused
 * (ABT_ERR_POOL, handle untouched); after the scheduler is freed a user
 * (non-automatic) pool is still valid and is freed by the user. A pool shared
 * by two ESs stays usable after one of them is freed. */
#include "bb_test.h"

static int ran;
static void work(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_pool h = pool;
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
    CHECK(h == pool);
    CHECK_OK(ABT_sched_free(&sched));
    CHECK(sched == ABT_SCHED_NULL);
    /* Still a valid pool. */
    ABT_pool_access a;
    CHECK_OK(ABT_pool_get_access(pool, &a));
    CHECK_EQ(a, ABT_POOL_ACCESS_MPMC);

    /* Two ESs on one pool; free one, the other keeps using it. */
    ABT_xstream e1, e2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &e1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &e2));
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
    CHECK_OK(ABT_xstream_free(&e1));
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 1);
    CHECK_OK(ABT_xstream_free(&e2));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK(pool == ABT_POOL_NULL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
