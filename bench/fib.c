/*
 * Divide and conquer (issue #7; the shape of ExaFMM's tree traversal in
 * Iwasaki et al. Sec. 4.3: inner nodes wait for their children, leaves only
 * compute).
 *
 *   fib N REPS
 *     N     the Fibonacci number to compute (default 20; 2..40)
 *     REPS  timed rounds (default 20)
 *
 * The main ULT, on the primary ES whose only pool is a private FIFO pool
 * (as deviation.c), computes fib(N) recursively: a node with n >= 2 creates
 * two child ULTs into that pool, for n-1 and n-2, with default attributes,
 * then frees them (ABT_thread_free joins) and adds their results; a node
 * with n < 2 (a leaf) stores n and ends, without yielding, blocking or
 * creating anything (it never deviates). The root is the main ULT itself, so
 * a round creates calls(N) - 1 ULTs, calls(N) being the number of nodes of
 * the call tree; about half of them are leaves.
 *
 * The children are freed newest first (the n-2 child, then the n-1 child).
 * A runtime that runs a joinee which has not started in the joiner's place
 * (bobbin's join bypass runs the newest unit of a private FIFO pool) then
 * walks the tree depth first, with about 2N ULTs alive at a time. One that
 * instead blocks the joiner lets the FIFO pool run the tree breadth first,
 * and then most of the tree is alive at once (N = 20: up to ~22,000 ULTs;
 * bobbin with ABT_OPT_JOIN_BYPASS=0 peaks at ~75 MiB of RSS instead of 2,
 * and is ten times slower per ULT).
 *
 * One untimed warm-up round, then REPS timed rounds; every round's result is
 * checked against an iterative fib(N) (exit 1 if wrong). Reported: ns per
 * ULT (time / (REPS * ULTs per round)).
 */
#include "bench_util.h"

typedef struct {
    long n;
    long result;
} fib_arg;

static ABT_pool pool;

static long fib_node(long n);

static void fib_ult(void *p)
{
    fib_arg *a = p;
    a->result = fib_node(a->n);
}

static long fib_node(long n)
{
    if (n < 2)
        return n;
    fib_arg a = {n - 1, 0}, b = {n - 2, 0};
    ABT_thread ta, tb;
    CHECK(ABT_thread_create(pool, fib_ult, &a, ABT_THREAD_ATTR_NULL, &ta));
    CHECK(ABT_thread_create(pool, fib_ult, &b, ABT_THREAD_ATTR_NULL, &tb));
    CHECK(ABT_thread_free(&tb));
    CHECK(ABT_thread_free(&ta));
    return a.result + b.result;
}

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 20);
    long reps = arg_long(argc, argv, 2, 20);
    if (n < 2 || n > 40) {
        fprintf(stderr, "usage: %s [N(2..40)] [REPS]\n", argv[0]);
        return 2;
    }

    /* fib(N) and the nodes of its call tree, iteratively:
     * calls(k) = 1 + calls(k-1) + calls(k-2), calls(0) = calls(1) = 1 */
    long f0 = 0, f1 = 1, c0 = 1, c1 = 1;
    for (long k = 2; k <= n; k++) {
        long f2 = f0 + f1, c2 = 1 + c0 + c1;
        f0 = f1, f1 = f2, c0 = c1, c1 = c2;
    }
    long expect = f1;
    long ults = c1 - 1; /* the root is the main ULT */

    CHECK(ABT_init(0, NULL));
    pool = use_private_pool();

    double t0 = 0;
    for (long r = -1; r < reps; r++) { /* round -1 is the warm-up */
        if (r == 0)
            t0 = now_ns();
        long got = fib_node(n);
        if (got != expect) {
            fprintf(stderr, "fib: round %ld: fib(%ld) = %ld, expected %ld\n", r, n, got, expect);
            exit(1);
        }
    }
    double t1 = now_ns();

    CHECK(ABT_finalize());
    long ops = ults * reps;
    printf("fib n=%ld result=%ld ults=%ld reps=%ld ops=%ld ns_per_ult=%.2f\n", n, expect, ults,
           reps, ops, (t1 - t0) / (double)ops);
    return 0;
}
