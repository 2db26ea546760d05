/* ABT_thread_yield_to with the direct shortcut (src/unit/hotpath.c) and
 * without it (ABT_OPT_DIRECT_YIELD=0, second run of the whole test):
 *  - two ULTs of a private FIFO pool ping-pong with yield_to in strict
 *    alternation, a third ULT queued ahead of them runs only after both end;
 *  - the yielder goes to the tail of its pool: D yield_to E, with F queued,
 *    runs again only after E and F;
 *  - the target waits in another private pool of the same scheduler, among
 *    other ULTs: it leaves that pool, the yielder goes to its own;
 *  - yield_to a ULT of a pool no scheduler serves runs it on the caller's ES;
 *  - yield_to a ULT waiting in another ES's pool (that ES busy) runs it on
 *    the caller's ES;
 *  - a joinee run by the join bypass that yields to another ULT: that ULT
 *    runs, the joiner gets the join right. */
#include "bb_test.h"

#define PINGS 100

static ABT_thread ping_t, pong_t, target;

#define CHECK_SEQ(expected)                                                               \
    do {                                                                                  \
        if (strcmp(bb_seq, (expected)) != 0)                                              \
            BB_FAIL_AT("sequence \"%s\", expected \"%s\"", bb_seq, (expected));           \
    } while (0)

static void ping(void *arg)
{
    (void)arg;
    for (int i = 0; i < PINGS; i++) {
        bb_seq_note('A');
        ABT_thread_yield_to(pong_t);
    }
}

static void pong(void *arg)
{
    (void)arg;
    for (int i = 0; i < PINGS; i++) {
        bb_seq_note('B');
        ABT_thread_yield_to(ping_t);
    }
}

static void yield_to_target_twice(void *arg)
{
    bb_seq_note((char)(intptr_t)arg);
    ABT_thread_yield_to(target);
    bb_seq_note((char)((intptr_t)arg + 1));
}

static int target_rank = -1;
static volatile int target_done;

static void record_rank(void *arg)
{
    bb_seq_note((char)(intptr_t)arg);
    ABT_self_get_xstream_rank(&target_rank);
    __atomic_store_n(&target_done, 1, __ATOMIC_RELEASE);
}

static ABT_pool make_priv(void)
{
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &p));
    return p;
}

static void run_all(void)
{
    ABT_xstream es;
    ABT_pool p;
    ABT_thread c, d, f;
    CHECK_OK(ABT_init(0, NULL));

    /* Ping-pong, with C queued first. */
    bb_seq_reset();
    p = make_priv();
    CHECK_OK(ABT_thread_create(p, bb_seq_log_char, (void *)(intptr_t)'C',
                               ABT_THREAD_ATTR_NULL, &c));
    CHECK_OK(ABT_thread_create(p, ping, NULL, ABT_THREAD_ATTR_NULL, &ping_t));
    CHECK_OK(ABT_thread_create(p, pong, NULL, ABT_THREAD_ATTR_NULL, &pong_t));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_thread_free(&ping_t));
    CHECK_OK(ABT_thread_free(&pong_t));
    CHECK_OK(ABT_thread_free(&c));
    CHECK_OK(ABT_xstream_free(&es));
    {
        char want[sizeof(bb_seq)];
        int n = 0;
        want[n++] = 'C';
        for (int i = 0; i < PINGS; i++) {
            want[n++] = 'A';
            want[n++] = 'B';
        }
        want[n] = '\0';
        /* C first (queued first), then strict alternation. */
        CHECK_SEQ(want);
    }

    /* The yielder goes to the tail: D yield_to E, F queued behind E. */
    bb_seq_reset();
    p = make_priv();
    CHECK_OK(ABT_thread_create(p, yield_to_target_twice, (void *)(intptr_t)'d',
                               ABT_THREAD_ATTR_NULL, &d));
    CHECK_OK(ABT_thread_create(p, bb_seq_log_char, (void *)(intptr_t)'E',
                               ABT_THREAD_ATTR_NULL, &target));
    CHECK_OK(ABT_thread_create(p, bb_seq_log_char, (void *)(intptr_t)'F',
                               ABT_THREAD_ATTR_NULL, &f));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&d));
    CHECK_OK(ABT_thread_free(&target));
    CHECK_OK(ABT_thread_free(&f));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_SEQ("dEFe");

    /* The target waits between G and H in the scheduler's second pool. */
    bb_seq_reset();
    ABT_pool two[2];
    ABT_thread g, h;
    two[0] = make_priv();
    two[1] = make_priv();
    CHECK_OK(ABT_thread_create(two[0], yield_to_target_twice, (void *)(intptr_t)'d',
                               ABT_THREAD_ATTR_NULL, &d));
    CHECK_OK(ABT_thread_create(two[0], bb_seq_log_char, (void *)(intptr_t)'F',
                               ABT_THREAD_ATTR_NULL, &f));
    CHECK_OK(ABT_thread_create(two[1], bb_seq_log_char, (void *)(intptr_t)'G',
                               ABT_THREAD_ATTR_NULL, &g));
    CHECK_OK(ABT_thread_create(two[1], bb_seq_log_char, (void *)(intptr_t)'E',
                               ABT_THREAD_ATTR_NULL, &target));
    CHECK_OK(ABT_thread_create(two[1], bb_seq_log_char, (void *)(intptr_t)'H',
                               ABT_THREAD_ATTR_NULL, &h));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, two, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&d));
    CHECK_OK(ABT_thread_free(&target));
    CHECK_OK(ABT_thread_free(&f));
    CHECK_OK(ABT_thread_free(&g));
    CHECK_OK(ABT_thread_free(&h));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_SEQ("dEFeGH");

    /* The target waits in a pool that no scheduler serves. */
    bb_seq_reset();
    target_rank = -1;
    ABT_pool orphan;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &orphan));
    CHECK_OK(ABT_thread_create(orphan, record_rank, (void *)(intptr_t)'T', ABT_THREAD_ATTR_NULL,
                               &target));
    p = make_priv();
    CHECK_OK(ABT_thread_create(p, yield_to_target_twice, (void *)(intptr_t)'d',
                               ABT_THREAD_ATTR_NULL, &d));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&d));
    CHECK_OK(ABT_thread_free(&target));
    CHECK_SEQ("dTe");
    CHECK_EQ(target_rank, 1);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&orphan));

    /* The target waits in the primary ES's pool while the primary ULT spins
     * (its scheduler cannot run it): a ULT of ES 1 yields to it. */
    bb_seq_reset();
    target_rank = -1;
    target_done = 0;
    ABT_pool main0;
    ABT_xstream self_es;
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &main0));
    CHECK_OK(ABT_thread_create(main0, record_rank, (void *)(intptr_t)'T', ABT_THREAD_ATTR_NULL,
                               &target));
    p = make_priv();
    CHECK_OK(ABT_thread_create(p, yield_to_target_twice, (void *)(intptr_t)'d',
                               ABT_THREAD_ATTR_NULL, &d));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
    while (!__atomic_load_n(&target_done, __ATOMIC_ACQUIRE))
        ; /* no yield: ES 0 runs nothing else */
    CHECK_EQ(target_rank, 1);
    CHECK_OK(ABT_thread_free(&d));
    CHECK_OK(ABT_thread_free(&target));
    CHECK_SEQ("dTe");
    CHECK_OK(ABT_xstream_free(&es));

    /* Bypassed joinee yields to another ULT of the joiner's pool. */
    bb_seq_reset();
    CHECK_OK(ABT_thread_create(main0, yield_to_target_twice, (void *)(intptr_t)'x',
                               ABT_THREAD_ATTR_NULL, &d));
    CHECK_OK(ABT_thread_create(main0, bb_seq_log_char, (void *)(intptr_t)'Y', ABT_THREAD_ATTR_NULL,
                               &target));
    CHECK_OK(ABT_thread_join(d));
    CHECK_SEQ("xYy");
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(target, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&d));
    CHECK_OK(ABT_thread_free(&target));

    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(20);
    unsetenv("ABT_OPT_DIRECT_YIELD");
    run_all();
    setenv("ABT_OPT_DIRECT_YIELD", "0", 1);
    run_all();
    BB_TEST_END();
}
