/*
 * Yield-to (PEERS.md "yield_to"; issue #6 figure 4 for N > 2).
 *
 *   yield_to M [N]
 *     M  timed rounds (default 200000)
 *     N  ULTs in the ring (default 2)
 *
 * N ULTs on the primary ES (private FIFO pool, basic scheduler) pass control
 * around a ring: ULT i calls ABT_thread_yield_to(ULT (i+1) mod N). With
 * N = 2 this is a ping-pong: A yields to B, B yields to A. Each ULT makes
 * WARMUP + M calls; ULT 0 times its last M, i.e. M rounds of the ring, N*M
 * switches. The target of every switch is a ready ULT waiting in the pool,
 * the N-1 others sit in the pool too. Reported: ns per switch.
 */
#include <stdint.h>

#include "bench_util.h"

#define WARMUP 10

static long rounds, n_ults;
static ABT_thread *ring;
static double t0, t1;

static void body(void *arg)
{
    long me = (long)(intptr_t)arg;
    ABT_thread next = ring[(me + 1) % n_ults];
    for (long i = 0; i < WARMUP + rounds; i++) {
        if (me == 0 && i == WARMUP)
            t0 = now_ns();
        CHECK(ABT_thread_yield_to(next));
    }
    if (me == 0)
        t1 = now_ns();
}

int main(int argc, char **argv)
{
    rounds = arg_long(argc, argv, 1, 200000);
    n_ults = arg_long(argc, argv, 2, 2);
    if (n_ults < 2) {
        fprintf(stderr, "usage: %s [M] [N >= 2]\n", argv[0]);
        return 2;
    }

    CHECK(ABT_init(0, NULL));
    ABT_pool pool = use_private_pool();
    ring = malloc((size_t)n_ults * sizeof(*ring));
    /* None runs before the main ULT blocks in ABT_thread_free, so every
     * handle is set by the time ULT 0 first switches. */
    for (long i = 0; i < n_ults; i++)
        CHECK(ABT_thread_create(pool, body, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &ring[i]));
    for (long i = 0; i < n_ults; i++)
        CHECK(ABT_thread_free(&ring[i]));

    free(ring);
    CHECK(ABT_finalize());
    long ops = n_ults * rounds;
    printf("yield_to n=%ld rounds=%ld ops=%ld ns_per_op=%.2f\n", n_ults, rounds, ops,
           (t1 - t0) / (double)ops);
    return 0;
}
