/* A stop request must outlive a change of main scheduler (found by a stress
 * audit: both cases below hung every time).
 *  1. ABT_xstream_free of ES 1 while a ULT on ES 1, which keeps its pool
 *     busy by yielding, replaces ES 1's main scheduler (BASIC, then a second
 *     BASIC over the same pool): the free's FINISH reached the old
 *     scheduler, which retired with it, and the new one ran for ever. Now
 *     every main scheduler an ES gets inherits the stops asked of the ES.
 *  2. The same with ABT_finalize: a ULT left in the primary's pool replaces
 *     the primary ES's main scheduler while finalize drains that pool.
 * A hang is caught by the test's watchdog. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static atomic_int joining, replaced;
static ABT_pool shared;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* On ES 1: once the primary is freeing ES 1, yield a while (so that the
 * FINISH lands on the current scheduler), then replace it. */
static void replacer(void *arg)
{
    (void)arg;
    while (!atomic_load(&joining))
        ABT_thread_yield();
    double end = now() + 0.02;
    while (now() < end)
        ABT_thread_yield();
    ABT_xstream self;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &shared));
    atomic_fetch_add(&replaced, 1);
}

/* On the primary ES, run by ABT_finalize's drain. */
static void primary_replacer(void *arg)
{
    (void)arg;
    ABT_xstream self;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 0, NULL));
    atomic_fetch_add(&replaced, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL, &es1));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(shared, replacer, NULL, ABT_THREAD_ATTR_NULL, &t));
    atomic_store(&joining, 1);
    CHECK_OK(ABT_xstream_free(&es1)); /* case 1: returns once the replacer is done */
    CHECK_EQ(atomic_load(&replaced), 1);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_pool_free(&shared));

    ABT_xstream self;
    ABT_pool mine;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &mine));
    CHECK_OK(ABT_thread_create(mine, primary_replacer, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_finalize()); /* case 2: returns */
    CHECK_EQ(atomic_load(&replaced), 2);
    BB_TEST_END();
}
