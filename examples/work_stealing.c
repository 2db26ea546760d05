/*
 * Random work stealing with the predefined RANDWS pools and scheduler.
 *
 * N execution streams (2 to 4) each own one ABT_POOL_RANDWS pool. ES i's
 * main scheduler is ABT_SCHED_RANDWS over [P_i, the other pools]: it pops
 * from its own pool P_i first and, when that is empty, steals from a random
 * other pool. A RANDWS pool is a deque: a newly created ULT goes to the head,
 * where its owner pops it next (depth first, like a sequential call), while
 * a thief takes the tail, i.e. the oldest unit, which in a divide-and-conquer
 * computation is the root of the biggest subtree still waiting.
 *
 * The workload is fork-join Fibonacci with one ULT per fork: fib(n) forks a
 * ULT for fib(n-1) into the pool of the ES it runs on, computes fib(n-2)
 * itself, and joins. Only the root is seeded, into ES 0's pool; everything
 * that runs elsewhere got there by being stolen.
 *
 * "The pool of the ES it runs on" is looked up through the ES's rank, not
 * with ABT_self_get_last_pool: a stolen ULT stays associated with the pool
 * it was stolen from, so its last pool is the victim's, and forking into
 * it would pile every ULT into the seed pool.
 *
 * The main ULT must stay on the primary ES (ABT_finalize is called there),
 * so it lives in one more pool, P_main, that only ES 0's scheduler lists.
 *
 * Prints how many ULTs each ES started and how many it stole, and
 * checks the result, the number of ULTs, and that more than one ES worked.
 *   usage: work_stealing [num ESs, 2..4] [n]   (default 4, 22)
 */
#include <abt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_ES 4

static int num_es;
static ABT_pool own_pool[MAX_ES]; /* P_i, indexed by ES rank */
static atomic_long ults_run[MAX_ES];
static atomic_long ults_stolen[MAX_ES]; /* see count_steal() */

static void check(int ret, const char *what)
{
    if (ret != ABT_SUCCESS) {
        fprintf(stderr, "%s failed: %d\n", what, ret);
        exit(1);
    }
}

static int my_rank(void)
{
    int rank;
    check(ABT_self_get_xstream_rank(&rank), "ABT_self_get_xstream_rank");
    if (rank < 0 || rank >= num_es) {
        fprintf(stderr, "a ULT runs on an unexpected ES (rank %d)\n", rank);
        exit(1);
    }
    return rank;
}

/* A ULT stays associated with the pool it was created in, wherever it runs.
 * So an ES "steals" a ULT when it starts the ULT although the ULT was created
 * in another ES's pool, or when it picks up such a ULT as it resumes after a
 * join (stealing a continuation: the ULT blocked, the child that ended woke
 * it into its pool, and a thief took it from there). The second case is seen
 * only when the ULT resumes on another ES than the one it blocked on, so the
 * counts are lower bounds. */
static void count_steal(int rank)
{
    atomic_fetch_add_explicit(&ults_stolen[rank], 1, memory_order_relaxed);
}

typedef struct {
    int n;
    int home; /* rank of the ES whose pool the ULT is created in */
    long result;
} fib_arg;

static void fib_ult(void *p);

/* fib(n): fork fib(n-1) as a ULT, do fib(n-2) here, join. `home` is the ES
 * whose pool the calling ULT belongs to. */
static void fib_body(fib_arg *a, int home)
{
    if (a->n < 2) {
        /* Some work per leaf, so that the tree takes long enough (tens of
         * ms) for the thieves to start and find work even on a busy machine:
         * a join runs a joinee that has not started yet on the joiner's own
         * ES, depth first, so a quick tree could end before any theft. */
        for (volatile int spin = 0; spin < 1000; spin++)
            ;
        a->result = a->n;
        return;
    }
    int rank = my_rank();
    fib_arg left = {a->n - 1, rank, 0}, right = {a->n - 2, rank, 0};
    ABT_thread child;
    check(ABT_thread_create(own_pool[rank], fib_ult, &left, ABT_THREAD_ATTR_NULL, &child),
          "fork");
    fib_body(&right, home);
    check(ABT_thread_free(&child), "join"); /* ABT_thread_free joins first */
    int now = my_rank();
    if (now != rank && now != home)
        count_steal(now);
    a->result = left.result + right.result;
}

static void fib_ult(void *p)
{
    fib_arg *a = p;
    int rank = my_rank();
    atomic_fetch_add_explicit(&ults_run[rank], 1, memory_order_relaxed);
    if (rank != a->home)
        count_steal(rank);
    fib_body(a, a->home);
}

/* The same recursion, sequentially: the value, and how many ULTs fib_body
 * forks for it. */
static long fib_seq(int n, long *forks)
{
    if (n < 2)
        return n;
    long a = fib_seq(n - 1, forks), b = fib_seq(n - 2, forks);
    ++*forks;
    return a + b;
}

int main(int argc, char **argv)
{
    num_es = argc > 1 ? atoi(argv[1]) : 4;
    int n = argc > 2 ? atoi(argv[2]) : 22;
    if (num_es < 2 || num_es > MAX_ES || n < 0 || n > 40) {
        fprintf(stderr, "usage: %s [num ESs, 2..%d] [n, 0..40]\n", argv[0], MAX_ES);
        return 2;
    }

    check(ABT_init(argc, argv), "ABT_init");

    /* Automatic pools: freed with the last scheduler that uses them. Every
     * ES may push into and pop from every P_i (its owner and thieves), so
     * they are MPMC. */
    for (int i = 0; i < num_es; i++)
        check(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                                    &own_pool[i]),
              "create a RANDWS pool");
    /* P_main: only ES 0 pops; whichever ES ends the root wakes main into it. */
    ABT_pool main_pool;
    check(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_TRUE, &main_pool),
          "create main's pool");

    ABT_sched scheds[MAX_ES];
    for (int i = 0; i < num_es; i++) {
        ABT_pool pools[MAX_ES + 1];
        int k = 0;
        pools[k++] = own_pool[i]; /* first: the scheduler's own pool */
        for (int j = 1; j < num_es; j++)
            pools[k++] = own_pool[(i + j) % num_es]; /* the victims */
        if (i == 0)
            pools[k++] = main_pool; /* a "victim" that only ES 0 visits */
        check(ABT_sched_create_basic(ABT_SCHED_RANDWS, k, pools, ABT_SCHED_CONFIG_NULL,
                                     &scheds[i]),
              "create a RANDWS scheduler");
    }

    /* ES 0 is the primary ES. Replacing its scheduler moves the main ULT into
     * the new scheduler's first pool, P_0, where other ESs could steal it;
     * re-associate it with P_main before any other ES exists. */
    ABT_xstream xstreams[MAX_ES];
    check(ABT_xstream_self(&xstreams[0]), "ABT_xstream_self");
    check(ABT_xstream_set_main_sched(xstreams[0], scheds[0]), "set ES 0's scheduler");
    check(ABT_self_set_associated_pool(main_pool), "ABT_self_set_associated_pool");
    for (int i = 1; i < num_es; i++) {
        check(ABT_xstream_create(scheds[i], &xstreams[i]), "ABT_xstream_create");
        int rank;
        check(ABT_xstream_get_rank(xstreams[i], &rank), "ABT_xstream_get_rank");
        if (rank != i) {
            fprintf(stderr, "ES %d got rank %d; this example indexes pools by rank\n", i, rank);
            return 1;
        }
    }

    /* Seed: the root goes into ES 0's pool only. */
    fib_arg root = {n, 0, 0};
    ABT_thread root_ult;
    check(ABT_thread_create(own_pool[0], fib_ult, &root, ABT_THREAD_ATTR_NULL, &root_ult),
          "create the root");
    check(ABT_thread_free(&root_ult), "join the root");

    for (int i = 1; i < num_es; i++)
        check(ABT_xstream_free(&xstreams[i]), "ABT_xstream_free");
    check(ABT_finalize(), "ABT_finalize");

    /* ---- summary and checks ---- */
    long forks = 0, expected = fib_seq(n, &forks);
    long total = 0;
    int busy = 0;
    printf("fib(%d) = %ld (expected %ld) on %d ESs\n", n, root.result, expected, num_es);
    for (int i = 0; i < num_es; i++) {
        long run = atomic_load(&ults_run[i]), stolen = atomic_load(&ults_stolen[i]);
        printf("  ES %d started %7ld ULTs; it stole at least %6ld (new ULTs, or ULTs "
               "resuming after a join)\n", i, run, stolen);
        total += run;
        busy += run > 0 || stolen > 0; /* a stolen continuation is work too */
    }
    int failed = 0;
    if (root.result != expected) {
        fprintf(stderr, "check failed: wrong result\n");
        failed = 1;
    }
    if (total != forks + 1) {
        fprintf(stderr, "check failed: %ld ULTs ran, expected %ld\n", total, forks + 1);
        failed = 1;
    }
    if (n >= 10 && busy < 2) {
        fprintf(stderr, "check failed: only %d ES ran work, nothing was stolen\n", busy);
        failed = 1;
    }
    printf("%s\n", failed ? "FAILED" : "all checks passed");
    return failed;
}
