/*
 * Fork-join split into its phases (issue #6, figure 1).
 *
 *   phases KIND N REPS
 *     KIND  ult | task
 *     N     work units per round (default 256)
 *     REPS  timed rounds (default 100)
 *
 * The main ULT, on the primary ES with a private FIFO pool and the basic
 * scheduler (as fork_join's "priv"), creates N units with empty bodies
 * (ULTs: default attributes, 16 KiB stacks), then joins all N
 * (ABT_thread_join / ABT_task_join), then frees all N (ABT_thread_free /
 * ABT_task_free), in creation order. None runs before the first join: the
 * main ULT does not yield while creating, so the join phase is where the
 * units run. Each phase is timed separately (CLOCK_MONOTONIC around it),
 * summed over REPS rounds after one untimed round. Reported: ns per unit for
 * each phase (create_ns, join_ns, free_ns) and their sum (ns_per_op).
 *
 * Each phase is a function of its own that is never inlined, so that a
 * callgrind profile gives its inclusive instruction count (report.sh). The
 * create and free phases do not switch contexts, so their inclusive counts
 * are exact; the join phase, which switches to the units and back, is best
 * taken as the total minus the other two.
 */
#include "bench_util.h"

static ABT_thread *units;

static __attribute__((noinline)) void phase_create(ABT_pool pool, long n, int is_ult)
{
    if (is_ult) {
        for (long i = 0; i < n; i++)
            CHECK(ABT_thread_create(pool, empty_body, NULL, ABT_THREAD_ATTR_NULL, &units[i]));
    } else {
        for (long i = 0; i < n; i++)
            CHECK(ABT_task_create(pool, empty_body, NULL, &units[i]));
    }
}

static __attribute__((noinline)) void phase_join(long n, int is_ult)
{
    if (is_ult) {
        for (long i = 0; i < n; i++)
            CHECK(ABT_thread_join(units[i]));
    } else {
        for (long i = 0; i < n; i++)
            CHECK(ABT_task_join(units[i]));
    }
}

static __attribute__((noinline)) void phase_free(long n, int is_ult)
{
    if (is_ult) {
        for (long i = 0; i < n; i++)
            CHECK(ABT_thread_free(&units[i]));
    } else {
        for (long i = 0; i < n; i++)
            CHECK(ABT_task_free(&units[i]));
    }
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "ult";
    long n = arg_long(argc, argv, 2, 256);
    long reps = arg_long(argc, argv, 3, 100);
    int is_ult = strcmp(kind, "ult") == 0;
    if (!is_ult && strcmp(kind, "task") != 0) {
        fprintf(stderr, "usage: %s ult|task [N] [REPS]\n", argv[0]);
        return 2;
    }

    CHECK(ABT_init(0, NULL));
    ABT_pool pool = use_private_pool();
    units = malloc((size_t)n * sizeof(*units));

    double t_create = 0, t_join = 0, t_free = 0;
    for (long r = -1; r < reps; r++) { /* round -1 is the warm-up */
        double t0 = now_ns();
        phase_create(pool, n, is_ult);
        double t1 = now_ns();
        phase_join(n, is_ult);
        double t2 = now_ns();
        phase_free(n, is_ult);
        double t3 = now_ns();
        if (r >= 0) {
            t_create += t1 - t0;
            t_join += t2 - t1;
            t_free += t3 - t2;
        }
    }

    free(units);
    CHECK(ABT_finalize());
    long ops = n * reps;
    printf("phases kind=%s n=%ld reps=%ld ops=%ld create_ns=%.2f join_ns=%.2f free_ns=%.2f "
           "ns_per_op=%.2f\n",
           kind, n, reps, ops, t_create / (double)ops, t_join / (double)ops,
           t_free / (double)ops, (t_create + t_join + t_free) / (double)ops);
    return 0;
}
