/* join_many and free_many run a list as a chain (src/unit/hotpath.c,
 * run_as_chain): the ULTs of the list that have not started and wait in a
 * pool served by the caller's ES's main scheduler are taken out of their
 * pools and run one after the other, in list order, the last returning to the
 * caller. On the primary ES, switched to a BASIC scheduler over one private
 * FIFO pool, the test checks:
 *  1. eight ULTs, created 0..7 behind an unrelated one, freed (and, another
 *     time, joined then freed) in another order run exactly in list order,
 *     ahead of the unrelated one; each sees itself as ABT_self_get_thread and
 *     runs on the caller's ES; free_many sets every handle to ABT_THREAD_NULL;
 *  2. a member that yields midway (as a middle member, and as the last one)
 *     lets the chain go on, finishes later, and join_many / free_many return
 *     only once every member has terminated;
 *  3. a member that waits on an eventual set by a later member completes;
 *  4. a list holding the caller itself (the primary ULT, or a non-primary
 *     caller's own handle) or the primary ULT returns ABT_ERR_INV_THREAD
 *     after joining (freeing: and NULLing) the entries before it; the
 *     entries after it are not chained (still READY right after the call);
 *     with the caller first, nothing runs;
 *  5. ABT_THREAD_NULL entries, a duplicate entry (join_many only: freeing a
 *     handle twice is an error, case 9), tasklets, a ULT with a stack
 *     size attribute and a revived ULT mixed in: all complete, no error;
 *     empty and all-NULL lists succeed;
 *  6. a ULT waiting in a pool served only by another ES (kept busy until a
 *     later member of the list releases it) is left to that ES: its last ES
 *     is ES 1 and its last pool that ES's; the local members run on ES 0;
 *  7. a non-primary ULT freeing four children runs them as a chain too;
 *  8. a member cancelled by an earlier member while it waits for its turn
 *     never runs (chain or not);
 *  9. a handle freed twice (in one free_many list, then by ABT_thread_free
 *     and ABT_thread_join on a stale copy) is refused with
 *     ABT_ERR_INV_THREAD, and later creations get distinct descriptors.
 * The whole body runs five times: under the techniques full-l and roc (the
 * exact orders of the chain), and under sc, with ABT_OPT_JOIN_BYPASS=0 and
 * with a tool callback registered (no chain, the scheduler's FIFO order:
 * the same units complete, the sequences are those of the scheduler; under
 * sc the scheduler runs an unstarted ULT on its own stack, without a
 * switch, which costs less than a chain). Case 6 runs before the switch to
 * the private pool: ES 1 wakes the primary ULT up, pushing it into its pool,
 * which must then be a shared one. */
#include "bb_test.h"

static int chain;              /* whether this round expects the chain */
static const char *round_name; /* for the messages */
static ABT_xstream primary_es;
static ABT_pool priv;
static int caller_rank;

/* The expected sequence of this round: with the chain, or without it. */
#define CHECK_SEQ(with_chain, without)                                                    \
    do {                                                                                  \
        const char *exp_ = chain ? (with_chain) : (without);                              \
        if (strcmp(bb_seq, exp_) != 0)                                                    \
            BB_FAIL_AT("sequence \"%s\", expected \"%s\" (%s)", bb_seq, exp_, round_name); \
    } while (0)

#define CHECK_STATE(thread, expected)                                                     \
    do {                                                                                  \
        ABT_thread_state st_ = (ABT_thread_state)-1;                                      \
        CHECK_OK(ABT_thread_get_state((thread), &st_));                                   \
        if (st_ != (expected))                                                            \
            BB_FAIL_AT("state of %s: %d, expected %d (%s)", #thread, (int)st_,            \
                       (int)(expected), round_name);                                      \
    } while (0)

static ABT_thread make(char c)
{
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)c,
                               ABT_THREAD_ATTR_NULL, &t));
    return t;
}

static ABT_task make_task(char c)
{
    ABT_task k = ABT_TASK_NULL;
    CHECK_OK(ABT_task_create(priv, bb_seq_log_char, (void *)(intptr_t)c, &k));
    return k;
}

/* ---- members that check who and where they are (1, 7) ---- */
#define NM 8
static ABT_thread ids[NM];
static int ran[NM], who_ok[NM];

static void member(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_thread me = ABT_THREAD_NULL;
    int rank = -1;
    bb_seq_note((char)('0' + i));
    int ok = ABT_self_get_thread(&me) == ABT_SUCCESS && me == ids[i];
    ok = ok && ABT_self_get_xstream_rank(&rank) == ABT_SUCCESS && rank == caller_rank;
    who_ok[i] = ok;
    ran[i]++;
}

static void make_members(ABT_thread *h, int n)
{
    for (int i = 0; i < n; i++) {
        ran[i] = who_ok[i] = 0;
        CHECK_OK(ABT_thread_create(priv, member, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &h[i]));
        ids[i] = h[i];
    }
}

static void check_members(int n)
{
    for (int i = 0; i < n; i++)
        if (ran[i] != 1 || !who_ok[i])
            BB_FAIL_AT("member %d ran %d time(s), saw itself and its ES %s (%s)", i, ran[i],
                       who_ok[i] ? "yes" : "no", round_name);
}

static void case_list_order(void)
{
    static const int order1[NM] = {3, 1, 7, 0, 4, 6, 2, 5};
    static const int order2[NM] = {6, 2, 5, 0, 7, 3, 1, 4};
    ABT_thread h[NM], list[NM], x;

    /* free_many alone. X, queued first, is not in the list. */
    bb_seq_reset();
    x = make('x');
    make_members(h, NM);
    for (int k = 0; k < NM; k++)
        list[k] = h[order1[k]];
    CHECK_OK(ABT_thread_free_many(NM, list));
    CHECK_SEQ("31704625", "x01234567");
    for (int k = 0; k < NM; k++)
        CHECK(list[k] == ABT_THREAD_NULL);
    check_members(NM);
    CHECK_OK(ABT_thread_free(&x));
    CHECK_SEQ("31704625x", "x01234567");

    /* join_many, then free_many: nothing runs twice. */
    bb_seq_reset();
    x = make('x');
    make_members(h, NM);
    for (int k = 0; k < NM; k++)
        list[k] = h[order2[k]];
    CHECK_OK(ABT_thread_join_many(NM, list));
    CHECK_SEQ("62507314", "x01234567");
    for (int k = 0; k < NM; k++) {
        CHECK(list[k] == h[order2[k]]);
        CHECK_STATE(list[k], ABT_THREAD_STATE_TERMINATED);
    }
    check_members(NM);
    CHECK_OK(ABT_thread_free_many(NM, list));
    for (int k = 0; k < NM; k++)
        CHECK(list[k] == ABT_THREAD_NULL);
    check_members(NM);
    CHECK_OK(ABT_thread_free(&x));
    CHECK_SEQ("62507314x", "x01234567");
}

/* ---- 2: a member that yields ---- */
static int yielder_done;

static void yielder(void *arg)
{
    (void)arg;
    bb_seq_note('a');
    ABT_thread_yield();
    bb_seq_note('A');
    yielder_done++;
}

static void case_yield(void)
{
    ABT_thread x, a, b, c;

    /* A in the middle: the chain goes on with C; A finishes once the caller
     * waits for it, after X that was queued before it. */
    bb_seq_reset();
    yielder_done = 0;
    x = make('x');
    CHECK_OK(ABT_thread_create(priv, yielder, NULL, ABT_THREAD_ATTR_NULL, &a));
    b = make('b');
    c = make('c');
    ABT_thread list[3] = {b, a, c};
    CHECK_OK(ABT_thread_join_many(3, list));
    CHECK_SEQ("bacxA", "xabcA");
    CHECK_EQ(yielder_done, 1);
    CHECK_STATE(a, ABT_THREAD_STATE_TERMINATED);
    CHECK_STATE(b, ABT_THREAD_STATE_TERMINATED);
    CHECK_STATE(c, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free_many(3, list));
    CHECK_OK(ABT_thread_free(&x));

    /* A last: its yield returns to the caller, which then waits for it. */
    bb_seq_reset();
    yielder_done = 0;
    x = make('x');
    CHECK_OK(ABT_thread_create(priv, yielder, NULL, ABT_THREAD_ATTR_NULL, &a));
    b = make('b');
    ABT_thread list2[2] = {b, a};
    CHECK_OK(ABT_thread_free_many(2, list2));
    CHECK_SEQ("baxA", "xabA");
    CHECK_EQ(yielder_done, 1);
    CHECK(list2[0] == ABT_THREAD_NULL && list2[1] == ABT_THREAD_NULL);
    CHECK_OK(ABT_thread_free(&x));
}

/* ---- 3: a member that waits on an eventual a later member sets ---- */
static ABT_eventual ev;

static void ev_waiter(void *arg)
{
    (void)arg;
    bb_seq_note('w');
    ABT_eventual_wait(ev, NULL);
    bb_seq_note('W');
}

static void ev_setter(void *arg)
{
    (void)arg;
    bb_seq_note('s');
    ABT_eventual_set(ev, NULL, 0);
}

static void case_eventual(void)
{
    ABT_thread z, w, s;
    bb_seq_reset();
    CHECK_OK(ABT_eventual_create(0, &ev));
    z = make('z');
    CHECK_OK(ABT_thread_create(priv, ev_waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
    CHECK_OK(ABT_thread_create(priv, ev_setter, NULL, ABT_THREAD_ATTR_NULL, &s));
    ABT_thread list[3] = {w, s, z};
    CHECK_OK(ABT_thread_free_many(3, list));
    CHECK_SEQ("wszW", "zwsW");
    for (int k = 0; k < 3; k++)
        CHECK(list[k] == ABT_THREAD_NULL);
    CHECK_OK(ABT_eventual_free(&ev));
}

/* ---- 4: an invalid entry ---- */
static ABT_thread primary_ult;
static ABT_thread k_a, k_b, k_c, k_d;
static int k_free_ret, k_join_ret, k_a_null;
static ABT_thread_state k_b_state, k_c_state, k_d_state;

static void invalid_caller(void *arg)
{
    (void)arg;
    ABT_thread me = ABT_THREAD_NULL;
    ABT_self_get_thread(&me);
    ABT_thread list[3] = {k_a, me, k_b};
    k_free_ret = ABT_thread_free_many(3, list);
    k_a_null = list[0] == ABT_THREAD_NULL && list[1] == me && list[2] == k_b;
    ABT_thread_get_state(k_b, &k_b_state);
    ABT_thread list2[3] = {k_c, primary_ult, k_d};
    k_join_ret = ABT_thread_join_many(3, list2);
    ABT_thread_get_state(k_c, &k_c_state);
    ABT_thread_get_state(k_d, &k_d_state);
}

static void case_invalid(void)
{
    ABT_thread self, a, b, c, d, k;
    ABT_thread_state after = chain ? ABT_THREAD_STATE_READY : ABT_THREAD_STATE_TERMINATED;
    CHECK_OK(ABT_self_get_thread(&self));

    /* free_many with the caller in the middle. */
    bb_seq_reset();
    a = make('a');
    b = make('b');
    c = make('c');
    d = make('d');
    ABT_thread list[5] = {a, b, self, c, d};
    CHECK_ERR(ABT_thread_free_many(5, list), ABT_ERR_INV_THREAD);
    CHECK_SEQ("ab", "abcd"); /* without the chain, the scheduler ran C and D too */
    CHECK(list[0] == ABT_THREAD_NULL && list[1] == ABT_THREAD_NULL);
    CHECK(list[2] == self && list[3] == c && list[4] == d);
    CHECK_STATE(c, after);
    CHECK_STATE(d, after);
    CHECK_OK(ABT_thread_free(&c));
    CHECK_OK(ABT_thread_free(&d));
    CHECK_SEQ("abcd", "abcd");

    /* join_many with the caller in the middle. */
    bb_seq_reset();
    a = make('a');
    b = make('b');
    c = make('c');
    ABT_thread list2[4] = {a, b, self, c};
    CHECK_ERR(ABT_thread_join_many(4, list2), ABT_ERR_INV_THREAD);
    CHECK_SEQ("ab", "abc");
    CHECK_STATE(a, ABT_THREAD_STATE_TERMINATED);
    CHECK_STATE(b, ABT_THREAD_STATE_TERMINATED);
    CHECK_STATE(c, after);
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_thread_free(&c));

    /* The caller first: nothing is joined, nothing runs. */
    bb_seq_reset();
    a = make('a');
    ABT_thread list3[2] = {self, a};
    CHECK_ERR(ABT_thread_join_many(2, list3), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_free_many(2, list3), ABT_ERR_INV_THREAD);
    CHECK(list3[0] == self && list3[1] == a);
    CHECK_SEQ("", "");
    CHECK_STATE(a, ABT_THREAD_STATE_READY);
    CHECK_OK(ABT_thread_free(&a));

    /* A non-primary caller: its own handle, then the primary ULT. */
    bb_seq_reset();
    primary_ult = self;
    k_free_ret = k_join_ret = -1;
    k_a_null = 0;
    k_b_state = k_c_state = k_d_state = (ABT_thread_state)-1;
    k_a = make('a');
    k_b = make('b');
    k_c = make('c');
    k_d = make('d');
    CHECK_OK(ABT_thread_create(priv, invalid_caller, NULL, ABT_THREAD_ATTR_NULL, &k));
    CHECK_OK(ABT_thread_free(&k));
    CHECK_EQ(k_free_ret, ABT_ERR_INV_THREAD);
    CHECK_EQ(k_join_ret, ABT_ERR_INV_THREAD);
    CHECK(k_a_null);
    CHECK_EQ(k_b_state, after);
    CHECK_EQ(k_c_state, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ(k_d_state, after);
    CHECK_SEQ("ac", "abcd");
    CHECK_OK(ABT_thread_free(&k_b));
    CHECK_OK(ABT_thread_free(&k_c));
    CHECK_OK(ABT_thread_free(&k_d));
    CHECK_SEQ("acbd", "abcd");
}

/* ---- 5: NULL entries, a duplicate, tasklets, attributes, a revived ULT ---- */
static void case_mixed(void)
{
    ABT_thread a, b, c, r;
    ABT_task t1, t2;
    ABT_thread_attr attr;

    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 96 * 1024));
    r = make('q');
    CHECK_OK(ABT_thread_join(r));

    bb_seq_reset();
    a = make('a');
    t1 = make_task('1');
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'b', attr, &b));
    t2 = make_task('2');
    c = make('c');
    CHECK_OK(ABT_thread_revive(priv, bb_seq_log_char, (void *)(intptr_t)'r', &r));
    ABT_thread list[10] = {ABT_THREAD_NULL, a, t1, ABT_THREAD_NULL, b, a, t2, r, c,
                           ABT_THREAD_NULL};
    CHECK_OK(ABT_thread_join_many(10, list));
    CHECK_SEQ("abrc12", "a1b2cr");
    CHECK_STATE(a, ABT_THREAD_STATE_TERMINATED);
    CHECK_STATE(b, ABT_THREAD_STATE_TERMINATED);
    CHECK_STATE(c, ABT_THREAD_STATE_TERMINATED);
    CHECK_STATE(r, ABT_THREAD_STATE_TERMINATED);
    ABT_task_state ts;
    CHECK_OK(ABT_task_get_state(t1, &ts));
    CHECK_EQ(ts, ABT_TASK_STATE_TERMINATED);
    CHECK_OK(ABT_task_get_state(t2, &ts));
    CHECK_EQ(ts, ABT_TASK_STATE_TERMINATED);
    ABT_thread list2[7] = {t1, ABT_THREAD_NULL, a, b, t2, r, c};
    CHECK_OK(ABT_thread_free_many(7, list2));
    for (int k = 0; k < 7; k++)
        CHECK(list2[k] == ABT_THREAD_NULL);
    CHECK_SEQ("abrc12", "a1b2cr");

    /* free_many straight away. */
    bb_seq_reset();
    t1 = make_task('1');
    a = make('a');
    t2 = make_task('2');
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'b', attr, &b));
    ABT_thread list3[6] = {ABT_THREAD_NULL, b, t1, ABT_THREAD_NULL, a, t2};
    CHECK_OK(ABT_thread_free_many(6, list3));
    CHECK_SEQ("ba12", "1a2b");
    for (int k = 0; k < 6; k++)
        CHECK(list3[k] == ABT_THREAD_NULL);
    CHECK_OK(ABT_thread_attr_free(&attr));

    /* Empty and all-NULL lists, and a list of one. */
    ABT_thread nulls[3] = {ABT_THREAD_NULL, ABT_THREAD_NULL, ABT_THREAD_NULL};
    CHECK_OK(ABT_thread_join_many(0, NULL));
    CHECK_OK(ABT_thread_free_many(0, NULL));
    CHECK_OK(ABT_thread_join_many(3, nulls));
    CHECK_OK(ABT_thread_free_many(3, nulls));
    bb_seq_reset();
    ABT_thread one[1] = {make('o')};
    CHECK_OK(ABT_thread_free_many(1, one));
    CHECK(one[0] == ABT_THREAD_NULL);
    CHECK_SEQ("o", "o");
}

/* ---- 6: a member waiting in a pool that only another ES serves ---- */
static volatile int release_blocker, blocker_running;
static int remote_rank, local_rank[2];

static void blocker(void *arg)
{
    (void)arg;
    __atomic_store_n(&blocker_running, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&release_blocker, __ATOMIC_ACQUIRE))
        ; /* keep ES 1 busy: the remote member cannot start there yet */
}

static void remote_body(void *arg)
{
    (void)arg;
    ABT_self_get_xstream_rank(&remote_rank);
}

static void local_body(void *arg)
{
    int i = (int)(intptr_t)arg;
    bb_seq_note((char)('1' + i));
    ABT_self_get_xstream_rank(&local_rank[i]);
}

static void releaser(void *arg)
{
    (void)arg;
    bb_seq_note('r');
    __atomic_store_n(&release_blocker, 1, __ATOMIC_RELEASE);
}

static void case_remote(void)
{
    ABT_xstream es1, last_es = ABT_XSTREAM_NULL;
    ABT_pool pool0, pool1;
    ABT_thread blk, rem, l1, l2, rel;
    int id1 = -1, last_id = -2;

    bb_seq_reset();
    release_blocker = blocker_running = 0;
    remote_rank = local_rank[0] = local_rank[1] = -1;
    CHECK_OK(ABT_xstream_get_main_pools(primary_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_pool_get_id(pool1, &id1));
    CHECK_OK(ABT_thread_create(pool1, blocker, NULL, ABT_THREAD_ATTR_NULL, &blk));
    while (!__atomic_load_n(&blocker_running, __ATOMIC_ACQUIRE))
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_thread_create(pool1, remote_body, NULL, ABT_THREAD_ATTR_NULL, &rem));
    CHECK_OK(ABT_thread_create(pool0, local_body, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &l2));
    CHECK_OK(ABT_thread_create(pool0, releaser, NULL, ABT_THREAD_ATTR_NULL, &rel));
    CHECK_OK(ABT_thread_create(pool0, local_body, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &l1));
    ABT_thread list[4] = {l1, rem, l2, rel};
    CHECK_OK(ABT_thread_join_many(4, list));
    CHECK_SEQ("12r", "2r1");
    CHECK_EQ(remote_rank, 1);
    CHECK_EQ(local_rank[0], caller_rank);
    CHECK_EQ(local_rank[1], caller_rank);
    for (int k = 0; k < 4; k++)
        CHECK_STATE(list[k], ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_get_last_pool_id(rem, &last_id));
    CHECK_EQ(last_id, id1);
    CHECK_OK(ABT_thread_get_last_xstream(rem, &last_es));
    CHECK(last_es == es1);
    CHECK_OK(ABT_thread_free_many(4, list));
    CHECK_OK(ABT_thread_free(&blk));
    CHECK_OK(ABT_xstream_free(&es1));
}

/* ---- 7: a non-primary ULT as the caller ---- */
static int p_ret, p_nulls;

static void parent_body(void *arg)
{
    (void)arg;
    ABT_thread h[4];
    bb_seq_note('P');
    make_members(h, 4);
    ABT_thread list[4] = {h[2], h[0], h[3], h[1]};
    p_ret = ABT_thread_free_many(4, list);
    p_nulls = 1;
    for (int k = 0; k < 4; k++)
        p_nulls = p_nulls && list[k] == ABT_THREAD_NULL;
    bb_seq_note('p');
}

static void case_nonprimary_caller(void)
{
    ABT_thread p;
    bb_seq_reset();
    p_ret = -1;
    p_nulls = 0;
    CHECK_OK(ABT_thread_create(priv, parent_body, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_OK(ABT_thread_free(&p));
    CHECK_SEQ("P2031p", "P0123p");
    CHECK_EQ(p_ret, ABT_SUCCESS);
    CHECK(p_nulls);
    check_members(4);
}

/* ---- 8: a request for a member waiting for its turn in the chain ---- */
static ABT_thread r_b;

static void canceller(void *arg)
{
    (void)arg;
    bb_seq_note('a');
    CHECK_OK(ABT_thread_cancel(r_b));
}

static void case_request_in_chain(void)
{
    bb_seq_reset();
    ABT_thread a = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(priv, canceller, NULL, ABT_THREAD_ATTR_NULL, &a));
    r_b = make('b');
    ABT_thread c = make('c');
    ABT_thread list[3] = {a, r_b, c};
    CHECK_OK(ABT_thread_join_many(3, list));
    CHECK_SEQ("ac", "ac"); /* b cancelled before it ran, chain or not */
    CHECK_STATE(r_b, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free_many(3, list));
}

/* ---- 9: a handle freed twice is refused, and the cache stays sound ---- */
static void case_double_free(void)
{
    bb_seq_reset();
    ABT_thread a = make('a'), b = make('b');
    ABT_thread stale = a;
    ABT_thread list[3] = {a, b, a};
    CHECK_ERR(ABT_thread_free_many(3, list), ABT_ERR_INV_THREAD);
    CHECK(list[0] == ABT_THREAD_NULL && list[1] == ABT_THREAD_NULL);
    CHECK_ERR(ABT_thread_free(&stale), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_join(stale), ABT_ERR_INV_THREAD);
    ABT_thread c = make('c'), d = make('d'), e = make('e');
    CHECK(c != d && d != e && c != e); /* no descriptor handed out twice */
    CHECK_OK(ABT_thread_free(&c));
    CHECK_OK(ABT_thread_free(&d));
    CHECK_OK(ABT_thread_free(&e));
}

static void run_round(const char *name, int expect_chain)
{
    round_name = name;
    chain = expect_chain;
    CHECK_OK(ABT_xstream_self(&primary_es));
    CHECK_OK(ABT_self_get_xstream_rank(&caller_rank));
    case_remote();
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    CHECK_OK(ABT_xstream_set_main_sched_basic(primary_es, ABT_SCHED_BASIC, 1, &priv));
    case_list_order();
    case_yield();
    case_eventual();
    case_invalid();
    case_mixed();
    case_nonprimary_caller();
    case_request_in_chain();
    case_double_free();
}

static int tool_events;

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)unit;
    (void)es;
    (void)event;
    (void)ctx;
    (void)arg;
    __atomic_fetch_add(&tool_events, 1, __ATOMIC_RELAXED);
}

/* One round under ABT_THREAD_TECHNIQUE=`technique`; the caller's setting
 * (the suite runs under each technique) is back for the other rounds. */
static void run_round_under(int argc, char **argv, const char *technique, int with_chain)
{
    const char *before = getenv("ABT_THREAD_TECHNIQUE");
    char *saved = before ? strdup(before) : NULL;
    setenv("ABT_THREAD_TECHNIQUE", technique, 1);
    CHECK_OK(ABT_init(argc, argv));
    run_round(technique, with_chain);
    CHECK_OK(ABT_finalize());
    if (saved)
        setenv("ABT_THREAD_TECHNIQUE", saved, 1);
    else
        unsetenv("ABT_THREAD_TECHNIQUE");
    free(saved);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    unsetenv("ABT_OPT_JOIN_BYPASS");
    run_round_under(argc, argv, "full-l", 1);
    run_round_under(argc, argv, "roc", 1);
    run_round_under(argc, argv, "sc", 0);

    setenv("ABT_OPT_JOIN_BYPASS", "0", 1);
    CHECK_OK(ABT_init(argc, argv));
    run_round("ABT_OPT_JOIN_BYPASS=0", 0);
    CHECK_OK(ABT_finalize());

    unsetenv("ABT_OPT_JOIN_BYPASS");
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    run_round("tool callback registered", 0);
    CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    CHECK(__atomic_load_n(&tool_events, __ATOMIC_RELAXED) > 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
