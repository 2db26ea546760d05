/* Regression (review finding "stale sleeper node"): a push into a shared pool
 * must wake a scheduler that is really asleep on it, not one that was woken
 * through another of its pools and is busy.
 *
 * Scenario: ES B runs BASIC_WAIT on [P2]; ES A runs BASIC_WAIT on [P1, P2].
 * Both go to sleep (B first). A ULT u1 pushed into P1 wakes A and keeps
 * yielding until a flag is set; BASIC pops its pools in order, so A only
 * ever runs u1 from P1 and never looks at P2. Then u2 (which sets the flag)
 * is pushed into P2: only B can run it.
 *
 * What used to go wrong: a woken BASIC_WAIT scheduler left its sleeper node
 * linked in its other pools. The push into P2 rang A's stale node (A is busy
 * with u1) instead of B's, B slept on, u2 never ran and u1 spun forever: a
 * livelock. Here the wait for u2 is bounded (a generous 5 s, far above the
 * microseconds it takes) so the bug shows as a failed check, and the
 * watchdog catches any other hang. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int flag;
static atomic_int u2_ran;
static ABT_xstream u2_xs;

static void u1_body(void *arg)
{
    (void)arg;
    while (!atomic_load(&flag))
        ABT_thread_yield();
}

static void u2_body(void *arg)
{
    (void)arg;
    ABT_self_get_xstream(&u2_xs);
    atomic_store(&u2_ran, 1);
    atomic_store(&flag, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    ABT_pool p1, p2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p2));
    ABT_pool a_pools[2] = {p1, p2};
    ABT_sched sched_a, sched_b;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p2, ABT_SCHED_CONFIG_NULL,
                                    &sched_b));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC_WAIT, 2, a_pools, ABT_SCHED_CONFIG_NULL,
                                    &sched_a));

    /* B goes to sleep first, then A (the pauses only make the bad
     * interleaving likely; the test passes whatever the timing). */
    ABT_xstream xb, xa;
    CHECK_OK(ABT_xstream_create(sched_b, &xb));
    usleep(200000);
    CHECK_OK(ABT_xstream_create(sched_a, &xa));
    usleep(200000);

    ABT_thread t1, t2;
    CHECK_OK(ABT_thread_create(p1, u1_body, NULL, ABT_THREAD_ATTR_NULL, &t1));
    usleep(200000); /* A is awake and busy with u1 */
    CHECK_OK(ABT_thread_create(p2, u2_body, NULL, ABT_THREAD_ATTR_NULL, &t2));

    for (int i = 0; i < 5000 && !atomic_load(&u2_ran); i++)
        usleep(1000);
    CHECK_EQ(atomic_load(&u2_ran), 1); /* 0: the push into P2 woke nobody */
    /* With the bug, release u1 so that A comes to P2 and the test can end. */
    atomic_store(&flag, 1);

    CHECK_OK(ABT_thread_free(&t2));
    CHECK_OK(ABT_thread_free(&t1));
    CHECK(u2_xs == xb); /* A never looks at P2 while u1 is in P1 */

    CHECK_OK(ABT_xstream_free(&xa));
    CHECK_OK(ABT_xstream_free(&xb));
    CHECK_OK(ABT_pool_free(&p1));
    CHECK_OK(ABT_pool_free(&p2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
