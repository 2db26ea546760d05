/*
 * Memory (PEERS.md "memory"; with D, Iwasaki et al. Fig. 24).
 *
 *   memory N [D]
 *     N  ULTs alive at once (default 65536)
 *     D  fraction of the ULTs that call ABT_thread_yield once (0..1,
 *        default 0), spread evenly as in deviation.c: ULT i yields when
 *        floor((i+1)*D) > floor(i*D)
 *
 * The main ULT on the primary ES (private FIFO pool, basic scheduler) creates
 * N ULTs with default attributes (16 KiB stacks), none of which runs before
 * all are created, then frees them all in creation order. With D = 0 the
 * bodies are empty; a ULT that yields goes to the back of the pool, still
 * holding its stack, and ends after the ULTs behind it have run. Reported:
 * peak RSS of the process (getrusage ru_maxrss) in MiB, and the RSS before
 * creation.
 */
#include <sys/resource.h>

#include "bench_util.h"

static double max_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* ru_maxrss is in KiB on Linux */
}

static void body(void *arg)
{
    if (arg)
        ABT_thread_yield();
}

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 65536);
    double d = arg_double(argc, argv, 2, 0);
    if (d > 1) {
        fprintf(stderr, "usage: %s [N] [D(0..1)]\n", argv[0]);
        return 2;
    }

    CHECK(ABT_init(0, NULL));
    ABT_pool pool = use_private_pool();
    ABT_thread *ths = malloc((size_t)n * sizeof(*ths));
    long yielders = 0;
    double before = max_rss_mib();

    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        int y = (long)((double)(i + 1) * d) > (long)((double)i * d); /* floor */
        yielders += y;
        CHECK(ABT_thread_create(pool, body, y ? (void *)1 : NULL, ABT_THREAD_ATTR_NULL, &ths[i]));
    }
    size_t stacksize = 0;
    CHECK(ABT_thread_get_stacksize(ths[0], &stacksize));
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_free(&ths[i]));
    double t1 = now_ns();

    double peak = max_rss_mib();
    free(ths);
    CHECK(ABT_finalize());
    printf("memory n=%ld d=%.2f yielders=%ld stacksize=%zu ops=%ld rss_before_mib=%.1f "
           "rss_mib=%.1f ns_per_op=%.2f\n",
           n, d, yielders, stacksize, n, before, peak, (t1 - t0) / (double)n);
    return 0;
}
