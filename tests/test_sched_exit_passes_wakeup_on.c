/* A sleeping scheduler rung by a push, that then stops at once (its ES
 * cancelled) without taking the unit, passes the wake-up on to another
 * scheduler sleeping on that pool; else the unit waits for ever.
 *
 * ES B runs ABT_SCHED_BASIC_WAIT over pool Q; ES A runs BASIC_WAIT over
 * [P, Q], looking at events after every unit (ABT_sched_basic_freq 1). Both
 * are left to fall asleep, A last, so that a push into Q rings A. The
 * primary ULT pushes X into Q (ringing A), then U into P and cancels A: A,
 * once awake, runs U from its first pool, sees the cancel and stops with X
 * still in Q. B must be woken to run X. (If A wakes before U arrives, it runs
 * X itself: the test then checks less, and passes.) */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int x_ran;

static void x_fn(void *arg)
{
    (void)arg;
    atomic_store(&x_ran, 1);
}

static void u_fn(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(40);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool parking;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parking));
    for (int round = 0; round < 8; round++) {
        ABT_pool p, q;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
        ABT_xstream a, b;
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &q, ABT_SCHED_CONFIG_NULL, &b));
        usleep(50000); /* B asleep */
        ABT_sched_config cfg;
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, 1, ABT_sched_config_var_end));
        ABT_pool pq[2] = {p, q};
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 2, pq, cfg, &a));
        CHECK_OK(ABT_sched_config_free(&cfg));
        usleep(50000); /* A asleep, its node first in Q's list */
        atomic_store(&x_ran, 0);
        ABT_thread x, u, got;
        CHECK_OK(ABT_thread_create(parking, x_fn, NULL, ABT_THREAD_ATTR_NULL, &x));
        CHECK_OK(ABT_thread_create(parking, u_fn, NULL, ABT_THREAD_ATTR_NULL, &u));
        CHECK_OK(ABT_pool_pop_thread(parking, &got));
        CHECK_OK(ABT_pool_pop_thread(parking, &got));
        /* Back to back, so that A is still waking up. */
        CHECK_OK(ABT_pool_push_thread(q, x));
        CHECK_OK(ABT_pool_push_thread(p, u));
        CHECK_OK(ABT_xstream_cancel(a));
        CHECK_OK(ABT_thread_free(&x)); /* B (or A) runs it */
        CHECK_EQ(atomic_load(&x_ran), 1);
        CHECK_OK(ABT_xstream_join(a));
        CHECK_OK(ABT_xstream_revive(a)); /* to run U if A stopped before it */
        CHECK_OK(ABT_thread_free(&u));
        CHECK_OK(ABT_xstream_free(&a));
        CHECK_OK(ABT_xstream_free(&b));
        CHECK_OK(ABT_pool_free(&p));
        CHECK_OK(ABT_pool_free(&q));
    }
    CHECK_OK(ABT_pool_free(&parking));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
