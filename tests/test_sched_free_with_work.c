/* ABT_sched_free of a scheduler that would take an automatic pool with work
 * in it along (it holds the pool last) is refused with ABT_ERR_SCHED, the
 * handle untouched: the pool's units would be lost, their joins would wait
 * forever. Once the work is gone, the scheduler is freed. A pool the user
 * owns (not automatic) does not stop the free: it outlives the scheduler,
 * its units with it. Neither does an automatic pool that another scheduler
 * still holds. */
#include "bb_test.h"

static int ran;

static void work(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    /* Its own automatic pool, with a ULT in it. */
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, NULL, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_pool own;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &own));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(own, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_sched h = sched;
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED);
    CHECK(h == sched);
    bb_test_run_from(own, &t);
    CHECK_EQ(ran, 1);
    CHECK_OK(ABT_sched_free(&sched));
    CHECK(sched == ABT_SCHED_NULL);

    /* A pool of the user's: the free goes ahead, the ULT waits in it. */
    ABT_pool mine;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &mine));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &mine, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_OK(ABT_thread_create(mine, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_sched_free(&sched));
    bb_test_run_from(mine, &t);
    CHECK_EQ(ran, 2);
    CHECK_OK(ABT_pool_free(&mine));

    /* An automatic pool shared by two schedulers: the first free goes
     * ahead, the second (the last holder) is refused while work waits. */
    ABT_pool shared;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
    ABT_sched s1, s2;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &s1));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &s2));
    CHECK_OK(ABT_thread_create(shared, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_sched_free(&s1));
    CHECK_ERR(ABT_sched_free(&s2), ABT_ERR_SCHED);
    bb_test_run_from(shared, &t);
    CHECK_EQ(ran, 3);
    CHECK_OK(ABT_sched_free(&s2));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
