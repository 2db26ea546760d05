/*
 * ULT / tasklet fork-join (PEERS.md "ULT fork-join", "tasklet fork-join").
 *
 *   fork_join KIND POOL N REPS
 *     KIND  ult | task | ult_many (ULTs, freed with one ABT_thread_free_many) |
 *           ult_64k (ULTs created with an attribute that sets a 64 KiB stack,
 *           a size of their own, as a program that needs deeper stacks does)
 *     POOL  priv (FIFO pool, ABT_POOL_ACCESS_PRIV, basic scheduler, set on the
 *           primary ES) | init (the pool ABT_init gave the primary ES)
 *     N     work units per round (default 256)
 *     REPS  timed rounds (default 1000)
 *
 * The main ULT creates N units with empty bodies (ULTs: default attributes,
 * i.e. 16 KiB stacks in both bobbin and Argobots), then frees them in
 * creation order (free joins). One untimed warm-up round first.
 * Reported: ns per unit (create + run + free).
 */
#include "bench_util.h"

static ABT_thread *threads;
static ABT_task *tasks;
static ABT_thread_attr attr = ABT_THREAD_ATTR_NULL; /* ult_64k's */

static void round_ult(ABT_pool pool, long n)
{
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_create(pool, empty_body, NULL, attr, &threads[i]));
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_free(&threads[i]));
}

static void round_ult_many(ABT_pool pool, long n)
{
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_create(pool, empty_body, NULL, ABT_THREAD_ATTR_NULL, &threads[i]));
    CHECK(ABT_thread_free_many((int)n, threads));
}

static void round_task(ABT_pool pool, long n)
{
    for (long i = 0; i < n; i++)
        CHECK(ABT_task_create(pool, empty_body, NULL, &tasks[i]));
    for (long i = 0; i < n; i++)
        CHECK(ABT_task_free(&tasks[i]));
}

int main(int argc, char **argv)
{
    const char *kind = argc > 1 ? argv[1] : "ult";
    const char *pool_kind = argc > 2 ? argv[2] : "priv";
    long n = arg_long(argc, argv, 3, 256);
    long reps = arg_long(argc, argv, 4, 1000);
    int is_64k = strcmp(kind, "ult_64k") == 0;
    int is_ult = is_64k || strcmp(kind, "ult") == 0, is_many = strcmp(kind, "ult_many") == 0;
    int is_priv = strcmp(pool_kind, "priv") == 0;
    if ((!is_ult && !is_many && strcmp(kind, "task") != 0) ||
        (!is_priv && strcmp(pool_kind, "init") != 0)) {
        fprintf(stderr, "usage: %s ult|ult_many|ult_64k|task priv|init [N] [REPS]\n", argv[0]);
        return 2;
    }

    CHECK(ABT_init(0, NULL));
    if (is_64k) {
        CHECK(ABT_thread_attr_create(&attr));
        CHECK(ABT_thread_attr_set_stacksize(attr, 64 << 10));
    }
    ABT_pool pool = is_priv ? use_private_pool() : default_pool();
    void (*round)(ABT_pool, long) = is_many ? round_ult_many : is_ult ? round_ult : round_task;
    threads = malloc((size_t)n * sizeof(*threads));
    tasks = malloc((size_t)n * sizeof(*tasks));

    round(pool, n); /* warm-up */
    double t0 = now_ns();
    for (long r = 0; r < reps; r++)
        round(pool, n);
    double t1 = now_ns();

    free(threads);
    free(tasks);
    if (is_64k)
        CHECK(ABT_thread_attr_free(&attr));
    CHECK(ABT_finalize());
    long ops = n * reps;
    printf("fork_join kind=%s pool=%s n=%ld reps=%ld ops=%ld ns_per_op=%.2f\n", kind,
           pool_kind, n, reps, ops, (t1 - t0) / (double)ops);
    return 0;
}
