/* The join bypass from shared pools (src/unit/hotpath.c,
 * take_out_of_own_pool): a joinee waiting in a shared pool of the joiner's
 * ES is run by the joiner only when it waits there alone. When others wait
 * with it, the joiner blocks and the scheduler runs the pool in its order,
 * all of it in one pass, before the joiner resumes. On the primary ES,
 * switched to a BASIC scheduler over two MPMC FIFO pools P0 and P1, the
 * test checks:
 *  - T alone in P1, X in P0: joining T runs T first (bypass), then X;
 *  - A then T in P1, X in P0: joining T runs X, A, T in the scheduler's
 *    order;
 *  - a fork-join of N ULTs in P0: after the first join, all N have run;
 *  - a tasklet alone in P1 joined by the primary ULT runs first too.
 * The whole body runs twice: with the default settings, then with
 * ABT_OPT_JOIN_BYPASS=0 (the scheduler's order everywhere). */
#include "bb_test.h"

#define FORK_N 8

static int bypass; /* whether this round expects the bypass */

#define CHECK_SEQ(expected)                                                               \
    do {                                                                                  \
        if (strcmp(bb_seq, (expected)) != 0)                                              \
            BB_FAIL_AT("sequence \"%s\", expected \"%s\" (bypass %d)", bb_seq, (expected), \
                       bypass);                                                           \
    } while (0)

static void create_logger(ABT_pool pool, char c, ABT_thread *out)
{
    CHECK_OK(ABT_thread_create(pool, bb_seq_log_char, (void *)(intptr_t)c, ABT_THREAD_ATTR_NULL,
                               out));
}

static void run_round(void)
{
    ABT_xstream es;
    ABT_pool pools[2];
    ABT_thread t, x, a;
    CHECK_OK(ABT_xstream_self(&es));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    CHECK_OK(ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 2, pools));

    /* T waits alone in its pool: bypassed, ahead of X in the first pool. */
    bb_seq_reset();
    create_logger(pools[0], 'x', &x);
    create_logger(pools[1], 't', &t);
    CHECK_OK(ABT_thread_join(t));
    CHECK_SEQ(bypass ? "t" : "xt");
    CHECK_OK(ABT_thread_free(&x));
    CHECK_SEQ(bypass ? "tx" : "xt");
    CHECK_OK(ABT_thread_free(&t));

    /* A waits with T: the scheduler runs both pools in order. */
    bb_seq_reset();
    create_logger(pools[0], 'x', &x);
    create_logger(pools[1], 'a', &a);
    create_logger(pools[1], 't', &t);
    CHECK_OK(ABT_thread_join(t));
    CHECK_SEQ("xat");
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&x));

    /* Fork-join: the first join lets the scheduler run them all. */
    bb_seq_reset();
    ABT_thread forked[FORK_N];
    for (int i = 0; i < FORK_N; i++)
        create_logger(pools[0], (char)('a' + i), &forked[i]);
    CHECK_OK(ABT_thread_join(forked[0]));
    CHECK_SEQ("abcdefgh");
    for (int i = 0; i < FORK_N; i++)
        CHECK_OK(ABT_thread_free(&forked[i]));

    /* A tasklet alone in its pool, joined by the primary ULT. */
    bb_seq_reset();
    ABT_task k;
    create_logger(pools[0], 'x', &x);
    CHECK_OK(ABT_task_create(pools[1], bb_seq_log_char, (void *)(intptr_t)'k', &k));
    CHECK_OK(ABT_task_join(k));
    CHECK_SEQ(bypass ? "k" : "xk");
    CHECK_OK(ABT_task_free(&k));
    CHECK_OK(ABT_thread_free(&x));
    CHECK_SEQ(bypass ? "kx" : "xk");
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    unsetenv("ABT_OPT_JOIN_BYPASS");
    bypass = 1;
    CHECK_OK(ABT_init(argc, argv));
    run_round();
    CHECK_OK(ABT_finalize());

    setenv("ABT_OPT_JOIN_BYPASS", "0", 1);
    bypass = 0;
    CHECK_OK(ABT_init(argc, argv));
    run_round();
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
