/* Regression (review finding "FINISH with blocked units"): ABT_xstream_join
 * of an ES must return even though a pool it shares with another ES holds a
 * suspended ULT. A blocked unit holds FINISH only where it can come back to
 * no one else (a private pool, or a pool one scheduler serves); a pool two
 * schedulers serve can be left to the other one.
 *
 * Scenario: ES2 then ES1 run BASIC_WAIT on one shared pool P (both asleep).
 * X is created in P and suspends itself there. The primary ULT joins ES2
 * while X is blocked; R, a ULT on the primary ES, resumes X 0.3 s later, so
 * X finishes on ES1 (or on ES2 if it is still there).
 *
 * What used to go wrong: ES2's scheduler counted X as work it had to wait
 * for, and once X was resumed and run elsewhere nothing woke ES2 to look
 * again: the join never returned (watchdog). */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_thread X;
static atomic_int x_blocked, x_done;

static void x_body(void *arg)
{
    (void)arg;
    atomic_store(&x_blocked, 1);
    ABT_self_suspend();
    atomic_store(&x_done, 1);
}

static void r_body(void *arg)
{
    (void)arg;
    usleep(300000);
    ABT_thread_resume(X);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    ABT_sched s1, s2;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, ABT_SCHED_CONFIG_NULL, &s2));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, ABT_SCHED_CONFIG_NULL, &s1));
    ABT_xstream x1, x2;
    CHECK_OK(ABT_xstream_create(s2, &x2));
    usleep(200000);
    CHECK_OK(ABT_xstream_create(s1, &x1));
    usleep(200000);

    CHECK_OK(ABT_thread_create(p, x_body, NULL, ABT_THREAD_ATTR_NULL, &X));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (!atomic_load(&x_blocked) || st != ABT_THREAD_STATE_BLOCKED) {
        usleep(1000);
        CHECK_OK(ABT_thread_get_state(X, &st));
    }

    ABT_xstream self;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));
    ABT_thread R;
    CHECK_OK(ABT_thread_create(main_pool, r_body, NULL, ABT_THREAD_ATTR_NULL, &R));

    CHECK_OK(ABT_xstream_join(x2)); /* used to hang here */
    ABT_xstream_state xs;
    CHECK_OK(ABT_xstream_get_state(x2, &xs));
    CHECK_EQ(xs, ABT_XSTREAM_STATE_TERMINATED);

    CHECK_OK(ABT_thread_free(&R));
    CHECK_OK(ABT_thread_free(&X)); /* X comes back on ES1 */
    CHECK_EQ(atomic_load(&x_done), 1);
    CHECK_OK(ABT_xstream_free(&x1));
    CHECK_OK(ABT_xstream_free(&x2));
    CHECK_OK(ABT_pool_free(&p));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
