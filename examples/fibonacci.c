/*
 * Fork-join fibonacci with one ULT per call, over two execution streams
 * that share one pool: each call forks a ULT for fib(n-1), computes fib(n-2)
 * itself, and joins. Prints fib(n) and checks it against a loop.
 *   usage: fibonacci [n] (default 20)
 */
#include <abt.h>
#include <stdio.h>
#include <stdlib.h>

static ABT_pool shared_pool;

typedef struct {
    int n;
    long result;
} fib_arg;

static void fib(void *p)
{
    fib_arg *a = p;
    if (a->n < 2) {
        a->result = a->n;
        return;
    }
    fib_arg left = {a->n - 1, 0}, right = {a->n - 2, 0};
    ABT_thread child;
    if (ABT_thread_create(shared_pool, fib, &left, ABT_THREAD_ATTR_NULL, &child) != ABT_SUCCESS)
        abort();
    fib(&right);
    ABT_thread_free(&child); /* joins first */
    a->result = left.result + right.result;
}

static long fib_loop(int n)
{
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static void check(int ret, const char *what)
{
    if (ret != ABT_SUCCESS) {
        fprintf(stderr, "%s failed: %d\n", what, ret);
        exit(1);
    }
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    ABT_xstream primary, second;
    ABT_pool mine;

    check(ABT_init(argc, argv), "ABT_init");
    /* ES 0 serves two pools: its own, which holds the main ULT (only ES 0
     * pops it, so main never wanders to ES 1 and can call ABT_finalize
     * from the primary ES), and the pool shared with ES 1. Other ESs may
     * push into `mine` (when they wake main up), hence MPSC. */
    check(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_TRUE, &mine),
          "create main's pool");
    check(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared_pool),
          "create the shared pool");
    ABT_pool pools0[2] = {mine, shared_pool};
    check(ABT_xstream_self(&primary), "ABT_xstream_self");
    check(ABT_xstream_set_main_sched_basic(primary, ABT_SCHED_BASIC, 2, pools0),
          "set ES 0's scheduler"); /* main moves to pools0[0] */
    check(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared_pool, ABT_SCHED_CONFIG_NULL,
                                   &second),
          "create ES 1");

    fib_arg root = {n, 0};
    ABT_thread top;
    check(ABT_thread_create(shared_pool, fib, &root, ABT_THREAD_ATTR_NULL, &top), "create");
    check(ABT_thread_free(&top), "free");

    check(ABT_xstream_free(&second), "ABT_xstream_free");
    check(ABT_finalize(), "ABT_finalize"); /* frees the pools with the schedulers */

    long expected = fib_loop(n);
    printf("fib(%d) = %ld (expected %ld)\n", n, root.result, expected);
    return root.result == expected ? 0 : 1;
}
