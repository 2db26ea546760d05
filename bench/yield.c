/*
 * Yield (PEERS.md "yield").
 *
 *   yield N K
 *     N  ULTs on the primary ES (default 16); the main ULT is one of them
 *     K  timed ABT_thread_yield calls per ULT (default 100000)
 *
 * The primary ES's only pool is a private FIFO pool (basic scheduler). The
 * main ULT creates N-1 ULTs; all N yield WARMUP times, then K times more. The
 * main ULT times its own K yields: in that window every ULT yields exactly K
 * times (round robin), so the cost is reported per yield: time / (N*K).
 */
#include "bench_util.h"

#define WARMUP 10

static long k_yields;

static void body(void *arg)
{
    (void)arg;
    for (long i = 0; i < WARMUP + k_yields; i++)
        ABT_thread_yield();
}

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 16);
    k_yields = arg_long(argc, argv, 2, 100000);

    CHECK(ABT_init(0, NULL));
    ABT_pool pool = use_private_pool();
    ABT_thread *ths = malloc((size_t)n * sizeof(*ths));
    for (long i = 1; i < n; i++)
        CHECK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &ths[i]));

    for (long i = 0; i < WARMUP; i++)
        ABT_thread_yield();
    double t0 = now_ns();
    for (long i = 0; i < k_yields; i++)
        ABT_thread_yield();
    double t1 = now_ns();
    for (long i = 1; i < n; i++)
        CHECK(ABT_thread_free(&ths[i]));

    free(ths);
    CHECK(ABT_finalize());
    long ops = n * k_yields;
    printf("yield n=%ld k=%ld ops=%ld ns_per_op=%.2f\n", n, k_yields, ops,
           (t1 - t0) / (double)ops);
    return 0;
}
