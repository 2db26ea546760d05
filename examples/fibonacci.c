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

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    ABT_xstream second;
    ABT_sched scheds[2];

    ABT_init(argc, argv);
    ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared_pool);
    for (int i = 0; i < 2; i++)
        ABT_sched_create_basic(ABT_SCHED_DEFAULT, 1, &shared_pool, ABT_SCHED_CONFIG_NULL,
                               &scheds[i]);
    ABT_xstream primary;
    ABT_xstream_self(&primary);
    ABT_xstream_set_main_sched(primary, scheds[0]);
    ABT_xstream_create(scheds[1], &second);

    fib_arg root = {n, 0};
    ABT_thread top;
    ABT_thread_create(shared_pool, fib, &root, ABT_THREAD_ATTR_NULL, &top);
    ABT_thread_free(&top);

    ABT_xstream_free(&second);
    ABT_finalize(); /* also frees the primary ES's scheduler and its pools */

    long expected = fib_loop(n);
    printf("fib(%d) = %ld (expected %ld)\n", n, root.result, expected);
    return root.result == expected ? 0 : 1;
}
