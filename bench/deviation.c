/*
 * Deviation (PEERS.md "deviation", after Iwasaki et al. Fig. 9).
 *
 *   deviation D N REPS ORDER
 *     D     fraction of the ULTs that call ABT_thread_yield once (0..1)
 *     N     ULTs per round (default 4096)
 *     REPS  timed rounds (default 20)
 *     ORDER pf (default): parent-first, ABT_thread_create;
 *           cf: child-first, ABT_thread_create_to (the ULT runs at once,
 *           the main ULT waits in its pool; the paper's Fig. 22b)
 *
 * Like "fork_join ult priv": the main ULT on the primary ES, whose only pool
 * is a private FIFO pool, creates N ULTs and frees them; ULT i yields once
 * when floor((i+1)*D) > floor(i*D), which spreads the yielding ULTs evenly.
 * One untimed warm-up round. Reported: ns per ULT (fork + join).
 */
#include <stdbool.h>

#include "bench_util.h"

static void body(void *arg)
{
    if (arg)
        ABT_thread_yield();
}

int main(int argc, char **argv)
{
    double d = arg_double(argc, argv, 1, 0.5);
    long n = arg_long(argc, argv, 2, 4096);
    long reps = arg_long(argc, argv, 3, 20);
    const char *order = argc > 4 ? argv[4] : "pf";
    bool child_first = strcmp(order, "cf") == 0;
    if (d > 1 || (!child_first && strcmp(order, "pf") != 0)) {
        fprintf(stderr, "usage: %s D(0..1) [N] [REPS] [pf|cf]\n", argv[0]);
        return 2;
    }

    CHECK(ABT_init(0, NULL));
    ABT_pool pool = use_private_pool();
    ABT_thread *ths = malloc((size_t)n * sizeof(*ths));
    void **args = malloc((size_t)n * sizeof(*args));
    long yielders = 0;
    for (long i = 0; i < n; i++) {
        int y = (long)((double)(i + 1) * d) > (long)((double)i * d); /* floor */
        args[i] = y ? (void *)1 : NULL;
        yielders += y;
    }

    double t0 = 0;
    for (long r = -1; r < reps; r++) { /* round -1 is the warm-up */
        if (r == 0)
            t0 = now_ns();
        for (long i = 0; i < n; i++) {
            if (child_first)
                CHECK(ABT_thread_create_to(pool, body, args[i], ABT_THREAD_ATTR_NULL, &ths[i]));
            else
                CHECK(ABT_thread_create(pool, body, args[i], ABT_THREAD_ATTR_NULL, &ths[i]));
        }
        for (long i = 0; i < n; i++)
            CHECK(ABT_thread_free(&ths[i]));
    }
    double t1 = now_ns();

    free(ths);
    free(args);
    CHECK(ABT_finalize());
    long ops = n * reps;
    printf("deviation%s d=%.2f n=%ld yielders=%ld reps=%ld ops=%ld ns_per_op=%.2f\n",
           child_first ? "_cf" : "", d, n, yielders, reps, ops, (t1 - t0) / (double)ops);
    return 0;
}
