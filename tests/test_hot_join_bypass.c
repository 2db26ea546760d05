/* The join bypass (src/unit/hotpath.c, ABT_OPT_JOIN_BYPASS): a ULT that
 * joins or frees a unit that has not started, waiting in a pool served by the
 * joiner's ES, runs it itself before the join returns. On the primary ES,
 * switched to a BASIC scheduler over one private FIFO pool, the test checks:
 *  - the joinee runs at once, ahead of units queued before it, on the
 *    joiner's ES, and sees itself as ABT_self_get_thread; its last ES is the
 *    joiner's;
 *  - a joinee that yields midway goes back to the pool: the joiner blocks,
 *    the unit queued before it runs, then the joinee finishes;
 *  - a joinee that blocks on a mutex held by another ULT, or on an eventual
 *    set by another ULT, still completes;
 *  - a joinee with a pending cancel is cancelled, never run;
 *  - a ULT waiting in a pool served only by another ES is run by that ES,
 *    not by the joiner;
 *  - a tasklet joined by the primary ULT runs at once; one joined by a
 *    non-primary ULT still completes;
 *  - a revived ULT and a revived tasklet are bypassed again.
 * The whole body runs twice: with the default settings (the exact orders of
 * the bypass), then with ABT_OPT_JOIN_BYPASS=0 (the scheduler's FIFO order). */
#include "bb_test.h"

static int bypass; /* whether this round expects the bypass */
static ABT_xstream primary_es;
static ABT_pool priv;

#define CHECK_SEQ(expected)                                                               \
    do {                                                                                  \
        if (strcmp(bb_seq, (expected)) != 0)                                              \
            BB_FAIL_AT("sequence \"%s\", expected \"%s\" (bypass %d)", bb_seq, (expected), \
                       bypass);                                                           \
    } while (0)

/* ---- 1: plain joinee checks who and where it is ---- */
static ABT_thread self_target;
static int self_ok, rank_seen = -1, es_ok;

static void who_am_i(void *arg)
{
    (void)arg;
    ABT_thread me;
    ABT_xstream es;
    bb_seq_note('t');
    self_ok = ABT_self_get_thread(&me) == ABT_SUCCESS && me == self_target;
    ABT_self_get_xstream_rank(&rank_seen);
    es_ok = ABT_self_get_xstream(&es) == ABT_SUCCESS && es == primary_es;
}

/* ---- 2: a joinee that yields ---- */
static void yields_once(void *arg)
{
    (void)arg;
    bb_seq_note('1');
    ABT_thread_yield();
    bb_seq_note('2');
}

/* ---- 3: a joinee that blocks ---- */
static ABT_mutex mtx;
static ABT_eventual ev;
static int holder_locked;

static void holder(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    holder_locked = 1;
    for (int i = 0; i < 3; i++)
        ABT_thread_yield();
    bb_seq_note('h');
    ABT_mutex_unlock(mtx);
}

static void locker(void *arg)
{
    (void)arg;
    bb_seq_note('l');
    ABT_mutex_lock(mtx);
    bb_seq_note('L');
    ABT_mutex_unlock(mtx);
}

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

/* ---- 4: cancelled before it starts ---- */
static int cancelled_ran;

static void never_runs(void *arg)
{
    (void)arg;
    cancelled_ran = 1;
}

/* ---- 5: a joinee served by another ES ---- */
static volatile int release_blocker, blocker_running;
static int remote_rank = -1;
static ABT_thread remote_target;
static int remote_join_ret = -1;

static void blocker(void *arg)
{
    (void)arg;
    __atomic_store_n(&blocker_running, 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&release_blocker, __ATOMIC_ACQUIRE))
        ; /* keep the other ES busy: the joinee cannot start there yet */
}

static void remote_body(void *arg)
{
    (void)arg;
    ABT_self_get_xstream_rank(&remote_rank);
}

static void remote_joiner(void *arg)
{
    (void)arg;
    remote_join_ret = ABT_thread_join(remote_target);
}

static void releaser(void *arg)
{
    (void)arg;
    __atomic_store_n(&release_blocker, 1, __ATOMIC_RELEASE);
}

/* ---- 6: tasklets ---- */
static int task_rank = -1, task_type_ok;

static void task_body(void *arg)
{
    ABT_unit_type type;
    bb_seq_note((char)(intptr_t)arg);
    ABT_self_get_xstream_rank(&task_rank);
    task_type_ok = ABT_self_get_type(&type) == ABT_SUCCESS && type == ABT_UNIT_TYPE_TASK;
}

static int nonprimary_task_done;

static void task_joiner(void *arg)
{
    (void)arg;
    ABT_task k;
    bb_seq_note('d');
    if (ABT_task_create(priv, task_body, (void *)(intptr_t)'k', &k) != ABT_SUCCESS)
        return;
    if (ABT_task_join(k) == ABT_SUCCESS && strchr(bb_seq, 'k') != NULL)
        nonprimary_task_done = 1;
    bb_seq_note('D');
    ABT_task_free(&k);
}

static void run_round(void)
{
    ABT_thread a, b, t, h;
    ABT_task k;
    ABT_xstream last;

    CHECK_OK(ABT_xstream_self(&primary_es));
    ABT_pool pool0;
    CHECK_OK(ABT_xstream_get_main_pools(primary_es, 1, &pool0));
    /* 5: T waits in the pool of ES 1 (busy with a blocker); the joiner on
     * ES 0 must leave it to ES 1. Done before ES 0 switches to its private
     * pool: ES 1 wakes the joiner up, pushing it into its pool. */
    ABT_xstream es1;
    ABT_pool pool1;
    ABT_thread blk, j, r;
    release_blocker = blocker_running = 0;
    remote_rank = -1;
    remote_join_ret = -1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_thread_create(pool1, blocker, NULL, ABT_THREAD_ATTR_NULL, &blk));
    while (!__atomic_load_n(&blocker_running, __ATOMIC_ACQUIRE))
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_thread_create(pool1, remote_body, NULL, ABT_THREAD_ATTR_NULL, &remote_target));
    CHECK_OK(ABT_thread_create(pool0, remote_joiner, NULL, ABT_THREAD_ATTR_NULL, &j));
    CHECK_OK(ABT_thread_create(pool0, releaser, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_OK(ABT_thread_free(&j));
    CHECK_EQ(remote_join_ret, ABT_SUCCESS);
    CHECK_EQ(remote_rank, 1);
    CHECK_OK(ABT_thread_free(&r));
    /* The primary ULT itself joining it: also left to ES 1. */
    CHECK_OK(ABT_thread_free(&blk));
    CHECK_OK(ABT_thread_free(&remote_target));
    release_blocker = blocker_running = 0;
    remote_rank = -1;
    CHECK_OK(ABT_thread_create(pool1, blocker, NULL, ABT_THREAD_ATTR_NULL, &blk));
    while (!__atomic_load_n(&blocker_running, __ATOMIC_ACQUIRE))
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_thread_create(pool1, remote_body, NULL, ABT_THREAD_ATTR_NULL, &remote_target));
    CHECK_OK(ABT_thread_create(pool0, releaser, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_OK(ABT_thread_join(remote_target));
    CHECK_EQ(remote_rank, 1);
    CHECK_OK(ABT_thread_free(&remote_target));
    CHECK_OK(ABT_thread_free(&r));
    CHECK_OK(ABT_thread_free(&blk));
    CHECK_OK(ABT_xstream_free(&es1));

    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    CHECK_OK(ABT_xstream_set_main_sched_basic(primary_es, ABT_SCHED_BASIC, 1, &priv));

    /* 1: T, queued behind A, runs first when joined. */
    bb_seq_reset();
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'a',
                               ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_create(priv, who_am_i, NULL, ABT_THREAD_ATTR_NULL, &self_target));
    CHECK_OK(ABT_thread_join(self_target));
    CHECK_SEQ(bypass ? "t" : "at");
    CHECK(self_ok);
    CHECK(es_ok);
    CHECK_EQ(rank_seen, 0);
    CHECK_OK(ABT_thread_get_last_xstream(self_target, &last));
    CHECK(last == primary_es);
    CHECK_OK(ABT_thread_free(&a)); /* a freed unstarted ULT is run by the freer */
    CHECK_SEQ(bypass ? "ta" : "at");
    CHECK_OK(ABT_thread_free(&self_target));

    /* 1b: free alone (no join first) bypasses too. */
    bb_seq_reset();
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'a',
                               ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'b',
                               ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_SEQ(bypass ? "b" : "ab");
    CHECK_OK(ABT_thread_free(&a));
    CHECK_SEQ(bypass ? "ba" : "ab");

    /* 2: T yields midway; B, queued before it, runs while the joiner waits. */
    bb_seq_reset();
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'b',
                               ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_create(priv, yields_once, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_SEQ(bypass ? "1b2" : "b12");
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_free(&b));

    /* 3a: T blocks on a mutex that H holds. */
    bb_seq_reset();
    holder_locked = 0;
    CHECK_OK(ABT_mutex_create(&mtx));
    CHECK_OK(ABT_thread_create(priv, holder, NULL, ABT_THREAD_ATTR_NULL, &h));
    while (!holder_locked)
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_thread_create(priv, locker, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    /* T tried first (bypassed, or H yielded to it), but got the mutex only
     * after H let go. */
    CHECK_SEQ("lhL");
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_free(&h));
    CHECK_OK(ABT_mutex_free(&mtx));

    /* 3b: T waits on an eventual that S, queued after it, sets. */
    bb_seq_reset();
    CHECK_OK(ABT_eventual_create(0, &ev));
    CHECK_OK(ABT_thread_create(priv, ev_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_create(priv, ev_setter, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_join(t));
    CHECK_SEQ("wsW");
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_eventual_free(&ev));

    /* 4: a pending cancel is served, not bypassed. */
    cancelled_ran = 0;
    CHECK_OK(ABT_thread_create(priv, never_runs, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_cancel(t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(cancelled_ran, 0);
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_create(priv, never_runs, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_cancel(t));
    CHECK_OK(ABT_thread_free(&t)); /* free without join: cancelled too */
    CHECK_EQ(cancelled_ran, 0);

    /* 6a: a tasklet joined by the primary ULT. */
    bb_seq_reset();
    task_rank = -1;
    task_type_ok = 0;
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'a',
                               ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_task_create(priv, task_body, (void *)(intptr_t)'k', &k));
    CHECK_OK(ABT_task_join(k));
    CHECK_SEQ(bypass ? "k" : "ak");
    CHECK_EQ(task_rank, 0);
    CHECK(task_type_ok);
    ABT_task_state tst;
    CHECK_OK(ABT_task_get_state(k, &tst));
    CHECK_EQ(tst, ABT_TASK_STATE_TERMINATED);
    CHECK_OK(ABT_task_free(&k));
    CHECK_OK(ABT_thread_free(&a));

    /* 6b: a tasklet joined by a non-primary ULT (not bypassed: the
     * scheduler runs it), while A waits in the pool ahead of it. */
    bb_seq_reset();
    nonprimary_task_done = 0;
    CHECK_OK(ABT_thread_create(priv, task_joiner, NULL, ABT_THREAD_ATTR_NULL, &j));
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'a',
                               ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_free(&j));
    CHECK_EQ(nonprimary_task_done, 1);
    CHECK_SEQ("dakD");
    CHECK_OK(ABT_thread_free(&a));

    /* 7: revived units are bypassed again, each time. */
    bb_seq_reset();
    CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'t',
                               ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_task_create(priv, task_body, (void *)(intptr_t)'k', &k));
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_task_join(k));
    CHECK_SEQ("tk");
    for (int i = 0; i < 3; i++) {
        bb_seq_reset();
        CHECK_OK(ABT_thread_create(priv, bb_seq_log_char, (void *)(intptr_t)'a',
                                   ABT_THREAD_ATTR_NULL, &a));
        CHECK_OK(ABT_thread_revive(priv, bb_seq_log_char, (void *)(intptr_t)'r', &t));
        CHECK_OK(ABT_task_revive(priv, task_body, (void *)(intptr_t)'q', &k));
        CHECK_OK(ABT_task_join(k));
        CHECK_OK(ABT_thread_join(t));
        CHECK_SEQ(bypass ? "qr" : "arq");
        CHECK_OK(ABT_thread_free(&a));
        CHECK_SEQ(bypass ? "qra" : "arq");
    }
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_task_free(&k));
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
