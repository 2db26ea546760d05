/*
 * Memory (PEERS.md "memory"; with D, Iwasaki et al. Fig. 24).
 *
 *   memory N [D] [ORDER]
 *     N      ULTs alive at once (default 65536)
 *     D      fraction of the ULTs that call ABT_thread_yield once (0..1,
 *            default 0), spread evenly as in deviation.c: ULT i yields when
 *            floor((i+1)*D) > floor(i*D)
 *     ORDER  pf (default) or cf: the ULTs are made by ABT_thread_create_to
 *            and run at once (child-first, as deviation.c); they stay
 *            alive, unfreed, until all are made
 *
 * The main ULT on the primary ES (private FIFO pool, basic scheduler) creates
 * N ULTs with default attributes (16 KiB stacks), none of which runs before
 * all are created, then frees them all in creation order. With D = 0 the
 * bodies are empty; a ULT that yields goes to the back of the pool, still
 * holding its stack, and ends after the ULTs behind it have run. Reported:
 * peak RSS of the process (getrusage ru_maxrss) in MiB, and the RSS before
 * creation.
 */
#include <stdbool.h>
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
    const char *order = argc > 3 ? argv[3] : "pf";
    bool child_first = strcmp(order, "cf") == 0;
    if (d > 1 || (!child_first && strcmp(order, "pf") != 0)) {
        fprintf(stderr, "usage: %s [N] [D(0..1)] [pf|cf]\n", argv[0]);
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
        void *arg = y ? (void *)1 : NULL;
        if (child_first)
            CHECK(ABT_thread_create_to(pool, body, arg, ABT_THREAD_ATTR_NULL, &ths[i]));
        else
            CHECK(ABT_thread_create(pool, body, arg, ABT_THREAD_ATTR_NULL, &ths[i]));
    }
    size_t stacksize = 0;
    CHECK(ABT_thread_get_stacksize(ths[0], &stacksize));
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_free(&ths[i]));
    double t1 = now_ns();

    double peak = max_rss_mib();
    free(ths);
    CHECK(ABT_finalize());
    printf("memory%s n=%ld d=%.2f yielders=%ld stacksize=%zu ops=%ld rss_before_mib=%.1f "
           "rss_mib=%.1f ns_per_op=%.2f\n",
           child_first ? "_cf" : "", n, d, yielders, stacksize, n, before, peak,
           (t1 - t0) / (double)n);
    return 0;
}
