/* A ULT V of a private pool X that no scheduler holds, run on ES 1 (whose
 * ABT_SCHED_BASIC_WAIT scheduler has only shared pools) by
 * ABT_self_schedule, blocks there; woken from the primary ES, it goes into
 * ES 1's inbox (only the ES it last ran on may push it into X), and the
 * waker rings ES 1's bell. ES 1 must take it in and make it ready in X
 * whenever the wake-up comes: while it polls, while it is going to sleep
 * (it must look at its inbox after it arms its bell), or asleep. Many
 * rounds, each waking V after a different short delay, so that some
 * wake-ups fall just as ES 1 goes to sleep; the primary ULT then takes V
 * from X and runs it on ES 1's shared pool. A lost wake-up leaves V in the
 * inbox for ever (the watchdog catches it). */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_eventual ev;

static void v_fn(void *arg)
{
    (void)arg;
    ABT_eventual_wait(ev, NULL);
}

static void d_fn(void *arg)
{
    ABT_thread v = (ABT_thread)arg;
    CHECK_OK(ABT_self_schedule(v, ABT_POOL_NULL));
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool x, p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &x));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_eventual_create(0, &ev));
    int rounds = BB_TEST_SIZE(10000, 500);
    unsigned seed = 7;
    for (int k = 0; k < rounds; k++) {
        ABT_thread v, got, d;
        CHECK_OK(ABT_thread_create(x, v_fn, NULL, ABT_THREAD_ATTR_NULL, &v));
        CHECK_OK(ABT_pool_pop_thread(x, &got)); /* out of its pool, for self_schedule */
        CHECK_OK(ABT_thread_create(p, d_fn, (void *)v, ABT_THREAD_ATTR_NULL, &d));
        ABT_thread_state s = ABT_THREAD_STATE_READY;
        while (s != ABT_THREAD_STATE_BLOCKED)
            CHECK_OK(ABT_thread_get_state(v, &s));
        seed = seed * 1103515245u + 12345u;
        uint64_t delay = (seed >> 8) % 120000u; /* 0 to 120 us: around the polling time */
        uint64_t until = now_ns() + delay;
        while (now_ns() < until)
            ;
        CHECK_OK(ABT_eventual_set(ev, NULL, 0));
        /* ES 1 takes it from its inbox and makes it ready in its pool, X,
         * which nobody serves: the primary ULT takes it from there. */
        for (got = ABT_THREAD_NULL; got == ABT_THREAD_NULL;) {
            CHECK_OK(ABT_pool_pop_thread(x, &got));
            if (got == ABT_THREAD_NULL)
                ABT_thread_yield();
        }
        CHECK(got == v);
        CHECK_OK(ABT_pool_push_thread(p, got));
        CHECK_OK(ABT_thread_free(&v));
        CHECK_OK(ABT_thread_free(&d));
        CHECK_OK(ABT_eventual_reset(ev));
    }
    CHECK_OK(ABT_eventual_free(&ev));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&p));
    CHECK_OK(ABT_pool_free(&x));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
