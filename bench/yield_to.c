/*
 * Yield-to (PEERS.md "yield_to").
 *
 *   yield_to M
 *     M  timed round trips (default 200000); one round trip is two switches
 *
 * Two ULTs A and B on the primary ES (private FIFO pool, basic scheduler)
 * ping-pong: A calls ABT_thread_yield_to(B), B calls ABT_thread_yield_to(A).
 * Each does WARMUP + M calls; A times its last M, i.e. 2*M switches.
 * Reported: ns per switch.
 */
#include "bench_util.h"

#define WARMUP 10

static long rounds;
static ABT_thread thread_a, thread_b;
static double t0, t1;

static void body_a(void *arg)
{
    (void)arg;
    for (long i = 0; i < WARMUP; i++)
        CHECK(ABT_thread_yield_to(thread_b));
    t0 = now_ns();
    for (long i = 0; i < rounds; i++)
        CHECK(ABT_thread_yield_to(thread_b));
    t1 = now_ns();
}

static void body_b(void *arg)
{
    (void)arg;
    for (long i = 0; i < WARMUP + rounds; i++)
        CHECK(ABT_thread_yield_to(thread_a));
}

int main(int argc, char **argv)
{
    rounds = arg_long(argc, argv, 1, 200000);

    CHECK(ABT_init(0, NULL));
    ABT_pool pool = use_private_pool();
    /* Neither runs before the main ULT blocks in ABT_thread_free, so both
     * handles are set by the time A first switches to B. */
    CHECK(ABT_thread_create(pool, body_a, NULL, ABT_THREAD_ATTR_NULL, &thread_a));
    CHECK(ABT_thread_create(pool, body_b, NULL, ABT_THREAD_ATTR_NULL, &thread_b));
    CHECK(ABT_thread_free(&thread_a));
    CHECK(ABT_thread_free(&thread_b));

    CHECK(ABT_finalize());
    long ops = 2 * rounds;
    printf("yield_to rounds=%ld ops=%ld ns_per_op=%.2f\n", rounds, ops, (t1 - t0) / (double)ops);
    return 0;
}
