/* A ULT of a private pool, run on another ES by a *_to call, must go back to
 * its pool through that pool's ES (found by a stress audit: lost units and
 * a hang in 9 of 10 runs, ThreadSanitizer: a race on the private list).
 * S, a ULT of the primary ES's private pool P0, suspends; a ULT on ES 1
 * resumes it with ABT_self_resume_yield_to, so S runs on ES 1; S then yields
 * many times, while 8 ULTs of P0 yield on the primary ES. S's first yield
 * used to push S into P0 from ES 1, racing with the primary ES's own pushes
 * and pops of P0's list; it now goes through P0's incoming stack, as a
 * migration into a private pool does. Checks that every yield of every ULT
 * returns and that S ran on ES 1. */
#include "bb_test.h"
#include <stdatomic.h>

#define YIELDERS 8
#define YIELDS 50

static ABT_thread suspended;
static atomic_long yields_done, local_yields, ran_elsewhere;

static void suspend_then_yield(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_self_suspend());
    for (int i = 0; i < YIELDS; i++) {
        int rank = -1;
        CHECK_OK(ABT_self_get_xstream_rank(&rank));
        atomic_fetch_add(&ran_elsewhere, rank != 0);
        CHECK_OK(ABT_thread_yield());
        atomic_fetch_add(&yields_done, 1);
    }
}

static void resumer(void *arg)
{
    (void)arg;
    for (;;) {
        ABT_thread_state state = ABT_THREAD_STATE_READY;
        CHECK_OK(ABT_thread_get_state(suspended, &state));
        if (state == ABT_THREAD_STATE_BLOCKED)
            break;
        CHECK_OK(ABT_thread_yield());
    }
    CHECK_OK(ABT_self_resume_yield_to(suspended));
}

static void local_yielder(void *arg)
{
    (void)arg;
    for (int i = 0; i < YIELDS; i++) {
        CHECK_OK(ABT_thread_yield());
        atomic_fetch_add(&local_yields, 1);
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self, es1;
    ABT_pool p0, p1;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &p0));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p1));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &p0));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p1, ABT_SCHED_CONFIG_NULL, &es1));
    long rounds = BB_TEST_SIZE(200, 20);
    for (long r = 0; r < rounds; r++) {
        ABT_thread ys[YIELDERS], res;
        CHECK_OK(ABT_thread_create(p0, suspend_then_yield, NULL, ABT_THREAD_ATTR_NULL, &suspended));
        for (int i = 0; i < YIELDERS; i++)
            CHECK_OK(ABT_thread_create(p0, local_yielder, NULL, ABT_THREAD_ATTR_NULL, &ys[i]));
        CHECK_OK(ABT_thread_create(p1, resumer, NULL, ABT_THREAD_ATTR_NULL, &res));
        CHECK_OK(ABT_thread_free_many(YIELDERS, ys));
        CHECK_OK(ABT_thread_free(&res));
        CHECK_OK(ABT_thread_free(&suspended));
    }
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&local_yields), rounds * YIELDERS * YIELDS);
    CHECK_EQ(atomic_load(&yields_done), rounds * YIELDS);
    CHECK(atomic_load(&ran_elsewhere) >= rounds);
    BB_TEST_END();
}
