/* Every threading technique (ABT_THREAD_TECHNIQUE: full, full-l, roc,
 * roc-l; src/include/bb_technique.h) survives every way a ULT can leave its
 * context before it ends. A ULT X deviates once, in one of these ways, and
 * finishes:
 *   - ABT_thread_yield; ABT_thread_yield_to a sibling that has not started;
 *   - ABT_self_suspend, resumed by a helper ULT (same ES, or the other ES);
 *   - ABT_mutex_lock of a mutex a helper ULT holds (same ES, or the other);
 *   - creating a child and joining it at once (a join bypass nested in X's
 *     own start), the child plain, or the child itself running a grandchild
 *     by a bypass and then yielding;
 *   - ABT_thread_exit, with and without an earlier yield;
 *   - ABT_thread_cancel by a helper while X yields in a loop (same ES, or
 *     the other);
 *   - ABT_thread_migrate_to_xstream of itself, or by a helper while X yields
 *     in a loop, to the other ES;
 *   - handing the ES to a helper that is in no pool: ABT_self_schedule (the
 *     helper runs as X's child and yields back to X), ABT_self_yield_to,
 *     ABT_self_suspend_to (the helper resumes X), ABT_self_exit_to;
 * and X (plus PLAIN, which does not deviate) is started in each of these ways:
 *   - by a scheduler: a launcher ULT on ES0 or ES1 creates X and its
 *     helper and ends, and the scheduler starts X;
 *   - by the join bypass of the primary ULT: it creates X and joins it at
 *     once;
 *   - by the join bypass of a driver ULT, which its scheduler started, on
 *     ES0 or ES1 (so the bypass nests in a started ULT's own start).
 * For each: X ran its code once and completed exactly once (or, cancelled,
 * not at all), never ran past ABT_thread_exit, its results are right,
 * join/free return ABT_SUCCESS and report it TERMINATED, locals on its stack
 * (a canary) survive every deviation, its stack address does not change,
 * each helper and child ran once, and every ULT that ended, however it
 * did, gave its stack back under a lazy technique (kept it otherwise).
 * All of it twice per technique: with the primary ES's main pool a private
 * FIFO (whose yields and yield_to switch to siblings directly; everything on
 * ES0, since no other ES may touch a private pool) and with the default
 * shared pools (plus the cases that cross ESs).
 * Last, a deep tree: each node (fibonacci, depth 11: 287 nodes; depth 8
 * under ThreadSanitizer or valgrind) creates two children and joins them,
 * some nodes yield before or after, some leaves yield or ABT_thread_exit;
 * run by the primary's bypass, by ES1, and with children spread over both
 * ESs. */
#include <sched.h>
#include <time.h>
#include "technique_util.h"

enum kind {
    K_PLAIN,
    K_YIELD,
    K_YIELD_TO,
    K_SUSPEND,
    K_MUTEX,
    K_JOIN_CHILD,
    K_JOIN_CHILD_DEV,
    K_EXIT,
    K_EXIT_YIELD,
    K_CANCEL,
    K_SCHEDULE,
    K_SELF_YIELD_TO,
    K_SUSPEND_TO,
    K_EXIT_TO,
    /* across ESs: shared pools only */
    K_SUSPEND_X,
    K_MUTEX_X,
    K_CANCEL_X,
    K_MIGRATE_SELF,
    K_MIGRATE_BY_OTHER,
    K_NUM
};

enum where { NONE, SAME, OTHER, POPPED /* in no pool: the target of ABT_self_*_to */ };

static const struct {
    const char *name;
    enum where helper; /* where X's helper ULT runs */
    int pre;           /* the helper must act before X starts */
    int cross;         /* touches the other ES */
} kinds[K_NUM] = {
    [K_PLAIN] = {"plain", NONE, 0, 0},
    [K_YIELD] = {"yield", NONE, 0, 0},
    [K_YIELD_TO] = {"yield_to", SAME, 0, 0},
    [K_SUSPEND] = {"suspend", SAME, 0, 0},
    [K_MUTEX] = {"mutex", SAME, 1, 0},
    [K_JOIN_CHILD] = {"join_child", NONE, 0, 0},
    [K_JOIN_CHILD_DEV] = {"join_child_deviating", NONE, 0, 0},
    [K_EXIT] = {"exit", NONE, 0, 0},
    [K_EXIT_YIELD] = {"yield_exit", NONE, 0, 0},
    [K_CANCEL] = {"cancel", SAME, 0, 0},
    [K_SCHEDULE] = {"self_schedule", POPPED, 0, 0},
    [K_SELF_YIELD_TO] = {"self_yield_to", POPPED, 0, 0},
    [K_SUSPEND_TO] = {"self_suspend_to", POPPED, 0, 0},
    [K_EXIT_TO] = {"self_exit_to", POPPED, 0, 0},
    [K_SUSPEND_X] = {"suspend_other_es", OTHER, 0, 1},
    [K_MUTEX_X] = {"mutex_other_es", OTHER, 1, 1},
    [K_CANCEL_X] = {"cancel_other_es", OTHER, 0, 1},
    [K_MIGRATE_SELF] = {"migrate_self", NONE, 0, 1},
    [K_MIGRATE_BY_OTHER] = {"migrate_by_other", SAME, 0, 1},
};

enum runner { R_SCHED, R_BYPASS_PRIMARY, R_DRIVER };
static const char *const runner_names[] = {"scheduler", "primary's bypass", "driver's bypass"};

static int lazy; /* the technique gives stacks back as ULTs end */

#define CANARY_N 16
/* How long X waits for another ES to cancel or move it before the round
 * fails. A count of yields was too short on a loaded machine: 1,000,000
 * yields passed before the other ES's thread got a CPU. */
#define WAIT_LIMIT_S 10.0

struct round {
    enum kind kind;
    enum runner runner;
    ABT_pool pool, other_pool; /* X's, and the other ES's */
    ABT_pool side; /* served by no scheduler */
    ABT_xstream other_es;
    int other_rank;
    uint64_t seed;
    ABT_mutex m;
    ABT_eventual done;
    int remaining; /* note_end calls until `done` is set */
    /* handles, published atomically (helpers on another ES read them) */
    ABT_thread x, h, l;
    int x_freed; /* by the driver */
    /* what happened */
    int x_start, x_end, x_after_exit, x_loops, x_rank_end;
    int h_start, h_end, held, released;
    int c_start, c_end, g_start, g_end;
    long c_result, g_result, result;
};

static int ld(const int *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void st(int *p, int v)
{
    __atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void inc(int *p)
{
    __atomic_fetch_add(p, 1, __ATOMIC_ACQ_REL);
}

static ABT_thread ld_thread(ABT_thread *p)
{
    return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void st_thread(ABT_thread *p, ABT_thread t)
{
    __atomic_store_n(p, t, __ATOMIC_RELEASE);
}

static void note_end(struct round *r)
{
    if (__atomic_sub_fetch(&r->remaining, 1, __ATOMIC_ACQ_REL) == 0)
        UCHECK_OK(ABT_eventual_set(r->done, NULL, 0));
}

/* A helper waiting for something: let X (same ES) run, and do not hog a
 * core while waiting for another ES. */
static void relax(void)
{
    ABT_thread_yield();
    sched_yield();
}

static int self_rank(void)
{
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    return rank;
}

static uint64_t canary_value(uint64_t seed, int i)
{
    return (seed + (uint64_t)i) * 0x9e3779b97f4a7c15ull;
}

/* ---- X's child and grandchild ---- */

static void grandchild_body(void *arg)
{
    struct round *r = arg;
    inc(&r->g_start);
    r->g_result = 7;
    inc(&r->g_end);
}

static void child_body(void *arg)
{
    struct round *r = arg;
    inc(&r->c_start);
    volatile uint64_t canary[CANARY_N];
    for (int i = 0; i < CANARY_N; i++)
        canary[i] = canary_value(r->seed + 1, i);
    long res = 100;
    if (r->kind == K_JOIN_CHILD_DEV) {
        ABT_thread g;
        UCHECK_OK(ABT_thread_create(r->pool, grandchild_body, r, ABT_THREAD_ATTR_NULL, &g));
        UCHECK_OK(ABT_thread_join(g));
        UCHECK(ld(&r->g_end) == 1);
        res += r->g_result;
        UCHECK_OK(ABT_thread_free(&g));
        UCHECK_OK(ABT_thread_yield());
    }
    for (int i = 0; i < CANARY_N; i++)
        UCHECK(canary[i] == canary_value(r->seed + 1, i));
    UCHECK(tq_on_own_stack(canary));
    r->c_result = res;
    inc(&r->c_end);
}

/* ---- X ---- */

static void x_body(void *arg)
{
    struct round *r = arg;
    inc(&r->x_start);
    volatile uint64_t canary[CANARY_N];
    for (int i = 0; i < CANARY_N; i++)
        canary[i] = canary_value(r->seed, i);
    size_t size0 = 0;
    void *stack0 = tq_self_stack(&size0);
    UCHECK(stack0 != NULL);
    UCHECK(tq_on_own_stack(canary));
    ABT_thread self;
    UCHECK_OK(ABT_self_get_thread(&self));
    long result = 1000 + r->kind;
    int exits = 0;

    switch (r->kind) {
    case K_PLAIN:
        break;
    case K_YIELD:
        UCHECK_OK(ABT_thread_yield());
        break;
    case K_YIELD_TO:
        UCHECK_OK(ABT_thread_yield_to(ld_thread(&r->h)));
        UCHECK(ld(&r->h_end) == 1); /* it ran to its end before X came back */
        break;
    case K_SUSPEND:
    case K_SUSPEND_X:
        UCHECK_OK(ABT_self_suspend());
        UCHECK(ld(&r->h_start) == 1);
        break;
    case K_MUTEX:
    case K_MUTEX_X:
        UCHECK(ld(&r->held) == 1);
        UCHECK_OK(ABT_mutex_lock(r->m));
        UCHECK(ld(&r->released) == 1); /* X waited for the holder */
        UCHECK_OK(ABT_mutex_unlock(r->m));
        break;
    case K_JOIN_CHILD:
    case K_JOIN_CHILD_DEV: {
        ABT_thread c;
        UCHECK_OK(ABT_thread_create(r->pool, child_body, r, ABT_THREAD_ATTR_NULL, &c));
        UCHECK_OK(ABT_thread_join(c));
        ABT_thread_state state = ABT_THREAD_STATE_READY;
        UCHECK_OK(ABT_thread_get_state(c, &state));
        UCHECK(state == ABT_THREAD_STATE_TERMINATED);
        UCHECK(ld(&r->c_end) == 1);
        result += r->c_result;
        UCHECK_OK(ABT_thread_free(&c));
        break;
    }
    case K_EXIT_YIELD:
        UCHECK_OK(ABT_thread_yield());
        /* fall through */
    case K_EXIT:
        exits = 1;
        break;
    case K_SCHEDULE:
        /* X runs the helper as its own child; it yields back to X */
        UCHECK_OK(ABT_self_schedule(ld_thread(&r->h), r->pool));
        UCHECK(ld(&r->h_start) == 1 && ld(&r->h_end) == 0);
        break;
    case K_SELF_YIELD_TO:
        UCHECK_OK(ABT_self_yield_to(ld_thread(&r->h)));
        UCHECK(ld(&r->h_end) == 1);
        break;
    case K_SUSPEND_TO:
        UCHECK_OK(ABT_self_suspend_to(ld_thread(&r->h))); /* which resumes X */
        UCHECK(ld(&r->h_end) == 1);
        break;
    case K_EXIT_TO:
        exits = 2;
        break;
    case K_CANCEL:
    case K_CANCEL_X:
        for (double until = ABT_get_wtime() + WAIT_LIMIT_S; ABT_get_wtime() < until;) {
            inc(&r->x_loops);
            ABT_thread_yield();
        }
        break; /* never cancelled: a failure, seen by main */
    case K_MIGRATE_SELF:
        UCHECK_OK(ABT_thread_migrate_to_xstream(self, r->other_es));
        for (double until = ABT_get_wtime() + WAIT_LIMIT_S;
             self_rank() != r->other_rank && ABT_get_wtime() < until;)
            ABT_thread_yield();
        break;
    case K_MIGRATE_BY_OTHER:
        for (double until = ABT_get_wtime() + WAIT_LIMIT_S;
             self_rank() != r->other_rank && ABT_get_wtime() < until;) {
            inc(&r->x_loops);
            ABT_thread_yield();
        }
        break;
    default:
        UCHECK(0);
    }

    for (int i = 0; i < CANARY_N; i++)
        UCHECK(canary[i] == canary_value(r->seed, i));
    UCHECK(tq_self_stack(NULL) == stack0);
    UCHECK(tq_on_own_stack(canary));
    r->x_rank_end = self_rank();
    r->result = result;
    inc(&r->x_end);
    note_end(r);
    if (exits == 1)
        ABT_thread_exit();
    else if (exits == 2)
        ABT_self_exit_to(ld_thread(&r->h));
    if (exits)
        st(&r->x_after_exit, 1);
}

/* ---- X's helper ---- */

static ABT_thread wait_for_x(struct round *r)
{
    ABT_thread x;
    while ((x = ld_thread(&r->x)) == ABT_THREAD_NULL)
        relax();
    return x;
}

static ABT_thread_state state_of(ABT_thread t)
{
    ABT_thread_state s = ABT_THREAD_STATE_READY;
    UCHECK_OK(ABT_thread_get_state(t, &s));
    return s;
}

static void helper_body(void *arg)
{
    struct round *r = arg;
    inc(&r->h_start);
    ABT_thread x;
    switch (r->kind) {
    case K_YIELD_TO:
    case K_SELF_YIELD_TO:
    case K_EXIT_TO:
        break; /* the target of X's yield_to or exit_to: plain */
    case K_SCHEDULE:
        UCHECK_OK(ABT_thread_yield()); /* back to X, its parent */
        break;
    case K_SUSPEND_TO:
        x = wait_for_x(r);
        UCHECK_OK(ABT_thread_resume(x)); /* X is suspended: we run in its place */
        break;
    case K_SUSPEND:
    case K_SUSPEND_X:
        x = wait_for_x(r);
        while (ABT_thread_resume(x) != ABT_SUCCESS) /* not suspended yet */
            relax();
        break;
    case K_MUTEX:
    case K_MUTEX_X:
        UCHECK_OK(ABT_mutex_lock(r->m));
        st(&r->held, 1);
        x = wait_for_x(r);
        while (state_of(x) != ABT_THREAD_STATE_BLOCKED)
            relax();
        st(&r->released, 1);
        UCHECK_OK(ABT_mutex_unlock(r->m));
        break;
    case K_CANCEL:
    case K_CANCEL_X:
        x = wait_for_x(r);
        while (ld(&r->x_loops) == 0)
            relax();
        UCHECK_OK(ABT_thread_cancel(x));
        note_end(r); /* for X, which never gets to */
        break;
    case K_MIGRATE_BY_OTHER:
        x = wait_for_x(r);
        while (ld(&r->x_loops) == 0)
            relax();
        UCHECK_OK(ABT_thread_migrate_to_xstream(x, r->other_es));
        break;
    default:
        UCHECK(0);
    }
    inc(&r->h_end);
    note_end(r);
}

/* ---- starting X ---- */

static void create_helper(struct round *r)
{
    ABT_thread h;
    enum where hw = kinds[r->kind].helper;
    ABT_pool p = hw == SAME ? r->pool : hw == OTHER ? r->other_pool : r->side;
    UCHECK_OK(ABT_thread_create(p, helper_body, r, ABT_THREAD_ATTR_NULL, &h));
    if (hw == POPPED) {
        ABT_unit unit = ABT_UNIT_NULL;
        UCHECK_OK(ABT_pool_pop(r->side, &unit));
        UCHECK(unit != ABT_UNIT_NULL);
        UCHECK_OK(ABT_thread_set_associated_pool(h, r->pool));
    }
    st_thread(&r->h, h);
}

/* Create X and its helper; with `join_now`, join X at once (the bypass: X
 * is the newest unit of the caller's own pool). A helper that must act
 * first gets to (the caller yields until it holds the mutex). */
static void launch(struct round *r, int join_now)
{
    enum where hw = kinds[r->kind].helper;
    if (hw != NONE && kinds[r->kind].pre) {
        create_helper(r);
        while (!ld(&r->held))
            relax();
    } else if ((hw == SAME && join_now) || hw == POPPED) {
        create_helper(r); /* before X, which must be the newest (or needs it) */
    }
    ABT_thread x;
    UCHECK_OK(ABT_thread_create(r->pool, x_body, r, ABT_THREAD_ATTR_NULL, &x));
    st_thread(&r->x, x);
    if ((hw == SAME || hw == OTHER) && !kinds[r->kind].pre && !(hw == SAME && join_now))
        create_helper(r); /* after X, which the scheduler starts first */
    if (join_now) {
        UCHECK_OK(ABT_thread_join(x));
        UCHECK(state_of(x) == ABT_THREAD_STATE_TERMINATED);
    }
}

static void launcher_body(void *arg)
{
    struct round *r = arg;
    launch(r, 0);
    note_end(r);
}

static void driver_body(void *arg)
{
    struct round *r = arg;
    volatile uint64_t canary[4];
    for (int i = 0; i < 4; i++)
        canary[i] = canary_value(r->seed + 2, i);
    launch(r, 1);
    ABT_thread x = r->x;
    void *stack = NULL;
    size_t size = 0;
    UCHECK_OK(ABT_thread_get_stack(x, &stack, &size));
    UCHECK((stack == NULL) == lazy);
    UCHECK_OK(ABT_thread_free(&x));
    UCHECK(x == ABT_THREAD_NULL);
    st(&r->x_freed, 1);
    for (int i = 0; i < 4; i++)
        UCHECK(canary[i] == canary_value(r->seed + 2, i));
    note_end(r);
}

static ABT_xstream xs[2];
static ABT_pool pools[2], side_pool;
static uint64_t next_seed = 1;
static int rounds_run;

static void join_free(ABT_thread *t, const char *what, const char *label)
{
    if (ABT_thread_join(*t) != ABT_SUCCESS)
        BB_FAIL_AT("%s: join %s failed", label, what);
    ABT_thread_state s = ABT_THREAD_STATE_READY;
    CHECK_OK(ABT_thread_get_state(*t, &s));
    if (s != ABT_THREAD_STATE_TERMINATED)
        BB_FAIL_AT("%s: %s joined but in state %d", label, what, (int)s);
    /* However it ended, a lazy stack went back; an eager one stays. */
    void *stack = NULL;
    size_t size = 0;
    CHECK_OK(ABT_thread_get_stack(*t, &stack, &size));
    if ((stack == NULL) != lazy || size != 16384)
        BB_FAIL_AT("%s: %s ended with stack %p (size %zu)", label, what, stack, size);
    if (ABT_thread_free(t) != ABT_SUCCESS || *t != ABT_THREAD_NULL)
        BB_FAIL_AT("%s: free %s failed", label, what);
}

#define RCHECK(cond)                                                                       \
    do {                                                                                   \
        if (!(cond))                                                                       \
            BB_FAIL_AT("%s: CHECK(%s) is false", label, #cond);                            \
    } while (0)

static void run_round(enum kind k, enum runner runner, int e, const char *config)
{
    struct round r;
    memset(&r, 0, sizeof(r));
    r.kind = k;
    r.runner = runner;
    r.pool = pools[e];
    r.other_pool = pools[1 - e];
    r.other_es = xs[1 - e];
    r.other_rank = 1 - e;
    r.side = side_pool;
    r.seed = next_seed++ * 1000003u;
    r.x = r.h = r.l = ABT_THREAD_NULL;
    r.remaining = 1 + (kinds[k].helper != NONE) + (runner != R_BYPASS_PRIMARY);
    char label[160];
    snprintf(label, sizeof(label), "[%s, %s pools] X %s, started by the %s on ES%d", tq_name,
             config, kinds[k].name, runner_names[runner], e);
    CHECK_OK(ABT_eventual_create(0, &r.done));
    CHECK_OK(ABT_mutex_create(&r.m));

    ABT_thread l;
    switch (runner) {
    case R_SCHED:
        CHECK_OK(ABT_thread_create(pools[e], launcher_body, &r, ABT_THREAD_ATTR_NULL, &l));
        r.l = l;
        break;
    case R_DRIVER:
        CHECK_OK(ABT_thread_create(pools[e], driver_body, &r, ABT_THREAD_ATTR_NULL, &l));
        r.l = l;
        break;
    case R_BYPASS_PRIMARY:
        launch(&r, 1);
        break;
    }
    CHECK_OK(ABT_eventual_wait(r.done, NULL));

    if (r.l != ABT_THREAD_NULL)
        join_free(&r.l, "the launcher", label);
    if (r.h != ABT_THREAD_NULL)
        join_free(&r.h, "the helper", label);
    if (!ld(&r.x_freed))
        join_free(&r.x, "X", label);

    int cancelled = k == K_CANCEL || k == K_CANCEL_X;
    RCHECK(ld(&r.x_start) == 1);
    RCHECK(ld(&r.x_end) == (cancelled ? 0 : 1));
    RCHECK(ld(&r.x_after_exit) == 0);
    if (kinds[k].helper != NONE) {
        RCHECK(ld(&r.h_start) == 1);
        RCHECK(ld(&r.h_end) == 1);
    }
    if (cancelled)
        RCHECK(ld(&r.x_loops) >= 1); /* and x_end == 0 above: cancelled in time */
    else {
        long expect = 1000 + k;
        if (k == K_JOIN_CHILD || k == K_JOIN_CHILD_DEV)
            expect += 100 + (k == K_JOIN_CHILD_DEV ? 7 : 0);
        RCHECK(r.result == expect);
    }
    if (k == K_JOIN_CHILD || k == K_JOIN_CHILD_DEV) {
        RCHECK(ld(&r.c_start) == 1 && ld(&r.c_end) == 1);
        RCHECK(ld(&r.g_start) == (k == K_JOIN_CHILD_DEV) && ld(&r.g_end) == ld(&r.g_start));
    }
    if (k == K_MIGRATE_SELF || k == K_MIGRATE_BY_OTHER)
        RCHECK(r.x_rank_end == r.other_rank);
    else if (!cancelled)
        RCHECK(r.x_rank_end == e);
    CHECK_OK(ABT_mutex_free(&r.m));
    CHECK_OK(ABT_eventual_free(&r.done));
    int before = bb_test_failures;
    tq_collect_ult_failures();
    if (bb_test_failures != before)
        fprintf(stderr, "  ... in %s\n", label);
    rounds_run++;
}

/* ---- the tree ---- */

struct node {
    int n, id, cross;
    long result;
    ABT_pool pool, other;
};

static int tree_nodes, tree_exits;

static void node_body(void *arg)
{
    struct node *nd = arg;
    inc(&tree_nodes);
    volatile uint64_t canary[4];
    for (int i = 0; i < 4; i++)
        canary[i] = canary_value((uint64_t)nd->id, i);
    void *stack0 = tq_self_stack(NULL);
    UCHECK(tq_on_own_stack(canary));
    if (nd->n < 2) {
        nd->result = nd->n;
        if (nd->id % 4 == 1)
            UCHECK_OK(ABT_thread_yield());
        for (int i = 0; i < 4; i++)
            UCHECK(canary[i] == canary_value((uint64_t)nd->id, i));
        if (nd->id % 8 == 3) {
            inc(&tree_exits);
            ABT_thread_exit();
            UCHECK(0);
        }
        return;
    }
    if (nd->id % 3 == 0)
        UCHECK_OK(ABT_thread_yield());
    /* The children's descriptors live on this ULT's stack. */
    struct node kids[2] = {{nd->n - 1, 2 * nd->id + 1, nd->cross, -1, nd->pool, nd->other},
                           {nd->n - 2, 2 * nd->id + 2, nd->cross, -1, nd->pool, nd->other}};
    ABT_thread t[2];
    UCHECK_OK(ABT_thread_create(nd->pool, node_body, &kids[0], ABT_THREAD_ATTR_NULL, &t[0]));
    /* Across ESs, children go to the other ES's pool, and their own
     * children back: the parent's pool is swapped for them. */
    if (nd->cross && nd->id % 2) {
        kids[1].pool = nd->other;
        kids[1].other = nd->pool;
    }
    UCHECK_OK(ABT_thread_create(kids[1].pool, node_body, &kids[1], ABT_THREAD_ATTR_NULL, &t[1]));
    int first = nd->id % 2;
    UCHECK_OK(ABT_thread_join(t[first]));
    UCHECK_OK(ABT_thread_join(t[1 - first]));
    UCHECK_OK(ABT_thread_free(&t[0]));
    UCHECK_OK(ABT_thread_free(&t[1]));
    if (nd->id % 5 == 2)
        UCHECK_OK(ABT_thread_yield());
    for (int i = 0; i < 4; i++)
        UCHECK(canary[i] == canary_value((uint64_t)nd->id, i));
    UCHECK(tq_self_stack(NULL) == stack0);
    nd->result = kids[0].result + kids[1].result;
}

static void count_tree(int n, int id, int *nodes, int *exits)
{
    ++*nodes;
    if (n < 2) {
        *exits += id % 8 == 3;
        return;
    }
    count_tree(n - 1, 2 * id + 1, nodes, exits);
    count_tree(n - 2, 2 * id + 2, nodes, exits);
}

static long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void run_tree(int e, int cross, const char *config)
{
    /* depth 11, 287 nodes; under ThreadSanitizer or valgrind 8, 67 nodes */
    const int tree_n = BB_TEST_SIZE(11, 8);
    struct node root = {tree_n, 0, cross, -1, pools[e], pools[1 - e]};
    st(&tree_nodes, 0);
    st(&tree_exits, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pools[e], node_body, &root, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t)); /* on ES0: the bypass; on ES1: a blocking join */
    CHECK_OK(ABT_thread_free(&t));
    int nodes = 0, exits = 0;
    count_tree(tree_n, 0, &nodes, &exits);
    if (root.result != fib(tree_n) || ld(&tree_nodes) != nodes || ld(&tree_exits) != exits)
        BB_FAIL_AT("[%s, %s pools] tree on ES%d%s: result %ld (%ld), %d nodes (%d), %d exits "
                   "(%d)", tq_name, config, e, cross ? " across ESs" : "", root.result,
                   fib(tree_n), ld(&tree_nodes), nodes, ld(&tree_exits), exits);
    tq_collect_ult_failures();
}

/* ---- main ---- */

static void run_config(int t, int priv)
{
    const char *config = priv ? "private" : "shared";
    tq_init(t);
    lazy = tq_techniques[t].lazy;
    CHECK_OK(ABT_xstream_self(&xs[0]));
    if (priv) {
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pools[0]));
        CHECK_OK(ABT_xstream_set_main_sched_basic(xs[0], ABT_SCHED_BASIC, 1, &pools[0]));
    } else {
        CHECK_OK(ABT_xstream_get_main_pools(xs[0], 1, &pools[0]));
    }
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[1]));
    CHECK_OK(ABT_xstream_get_main_pools(xs[1], 1, &pools[1]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side_pool));

    for (int k = 0; k < K_NUM; k++) {
        if (priv && kinds[k].cross)
            continue;
        /* With a private pool on ES0, nothing on ES1 may wake the primary. */
        int num_es = priv ? 1 : 2;
        for (int e = 0; e < num_es; e++) {
            run_round((enum kind)k, R_SCHED, e, config);
            run_round((enum kind)k, R_DRIVER, e, config);
        }
        run_round((enum kind)k, R_BYPASS_PRIMARY, 0, config);
    }
    run_tree(0, 0, config);
    if (!priv) {
        run_tree(1, 0, config);
        run_tree(0, 1, config);
    }

    CHECK_OK(ABT_xstream_join(xs[1]));
    CHECK_OK(ABT_xstream_free(&xs[1]));
    CHECK_OK(ABT_pool_free(&side_pool));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(60);
    unsetenv("ABT_THREAD_STACKSIZE"); /* 16384, which join_free checks */
    unsetenv("ABT_ENV_THREAD_STACKSIZE");
    struct timespec t0, t1;
    for (int t = 0; t < TQ_NUM; t++) {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        run_config(t, 1);
        run_config(t, 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        printf("%-7s %4d rounds and 4 trees in %.1f ms\n", tq_name, rounds_run,
               (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
        rounds_run = 0;
    }
    BB_TEST_END();
}
