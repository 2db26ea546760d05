/*
 * Memory (PEERS.md "memory").
 *
 *   memory N
 *     N  ULTs alive at once (default 65536)
 *
 * The main ULT on the primary ES (private FIFO pool, basic scheduler) creates
 * N ULTs with empty bodies and default attributes (16 KiB stacks), none of
 * which runs before all are created, then frees them all. Reported: peak RSS
 * of the process (getrusage ru_maxrss) in MiB, and the RSS before creation.
 */
#include <sys/resource.h>

#include "bench_util.h"

static double max_rss_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0; /* ru_maxrss is in KiB on Linux */
}

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 65536);

    CHECK(ABT_init(0, NULL));
    ABT_pool pool = use_private_pool();
    ABT_thread *ths = malloc((size_t)n * sizeof(*ths));
    double before = max_rss_mib();

    double t0 = now_ns();
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_create(pool, empty_body, NULL, ABT_THREAD_ATTR_NULL, &ths[i]));
    size_t stacksize = 0;
    CHECK(ABT_thread_get_stacksize(ths[0], &stacksize));
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_free(&ths[i]));
    double t1 = now_ns();

    double peak = max_rss_mib();
    free(ths);
    CHECK(ABT_finalize());
    printf("memory n=%ld stacksize=%zu ops=%ld rss_before_mib=%.1f rss_mib=%.1f "
           "ns_per_op=%.2f\n",
           n, stacksize, n, before, peak, (t1 - t0) / (double)n);
    return 0;
}
