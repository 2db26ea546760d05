/* Direct yield through a shared user pool (src/unit/hotpath.c): two
 * secondary ESs whose main schedulers (BASIC) both have the same user pool
 * as their only pool. A yielder pushes itself into the pool before its
 * context is saved, so the other ES may pop it at once and must wait for
 * the save (`switching`). Stress: N ULTs each yield K times, counting their
 * own iterations in a plain int (so that ThreadSanitizer sees any run of one
 * ULT on two ESs that is not ordered by the hand-over) and checking after
 * each yield that they are still themselves; every 64th iteration a ULT also
 * creates an unnamed tasklet, every 512th an unnamed ULT that yields twice
 * (so that yields pop tasklets and fresh ULTs, and creates take the create
 * shortcut into the shared pool on both ESs). Checked: exact per-ULT counts,
 * every tasklet and extra ULT ran once, every unit the pool made was given
 * back exactly once and none was pushed twice or freed while in the pool.
 * Pools: new-style FIFO (always MPMC), legacy MPMC FIFO with and without
 * u_get_thread (units map back through bobbin's unit map, from both ESs),
 * and a new-style LIFO (a yield mostly pops the yielder itself, while the
 * other ES pushes and pops too); with many ULTs, and with three (the pool
 * is nearly empty: an ES often pops the unit the other one is still
 * switching away from). Then once more with ABT_OPT_DIRECT_YIELD=0. Sizes
 * shrink under valgrind and ThreadSanitizer (BB_TEST_SIZE). */
#include "pool_user_util.h"

#define MAXN 64

enum { POP_FIFO, POP_LIFO };
static int pop_kind;

static up_unit *pop_unit(ABT_pool pool)
{
    up_state *s = up_state_of(pool);
    pthread_mutex_lock(&s->lock);
    up_unit *u = pop_kind == POP_LIFO ? up_list_pop_tail(s) : up_list_pop(s);
    pthread_mutex_unlock(&s->lock);
    return u;
}

static ABT_thread s_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)ctx;
    up_unit *u = pop_unit(pool);
    return u ? u->thread : ABT_THREAD_NULL;
}

static ABT_unit s_l_pop(ABT_pool pool)
{
    up_unit *u = pop_unit(pool);
    return u ? (ABT_unit)u : ABT_UNIT_NULL;
}

static up_state st;
static ABT_pool P;

/* iface 0: new-style; 1: legacy MPMC; 2: legacy MPMC with u_get_thread. */
static ABT_pool make_pool(int iface, int kind)
{
    ABT_pool pool = ABT_POOL_NULL;
    pop_kind = kind;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    if (iface == 0) {
        pool = up_new_pool_with(NULL, s_pop, cfg);
    } else {
        ABT_pool_def d = up_legacy_def(ABT_POOL_ACCESS_MPMC, iface == 2);
        d.p_pop = s_l_pop;
        d.p_pop_timedwait = NULL;
        CHECK_OK(ABT_pool_create(&d, cfg, &pool));
    }
    CHECK_OK(ABT_pool_config_free(&cfg));
    return pool;
}

/* ---- the workload ---- */
static int K;
static struct {
    int count;  /* plain: one ULT runs at a time, on whichever ES */
    int wrong;  /* iterations after which it was not itself */
    int moves;  /* iterations after which it ran on another ES */
    ABT_thread self;
} per[MAXN];
static atomic_int tasks_ran, extras_ran, extras_made, tasks_made;

static void small_task(void *arg)
{
    (void)arg;
    atomic_fetch_add(&tasks_ran, 1);
}

static void extra_ult(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    ABT_thread_yield();
    atomic_fetch_add(&extras_ran, 1);
}

static void worker(void *arg)
{
    int i = (int)(intptr_t)arg;
    int rank = -1, r;
    ABT_self_get_xstream_rank(&rank);
    for (int k = 0; k < K; k++) {
        per[i].count++;
        if ((k & 63) == 63 && ABT_task_create(P, small_task, NULL, NULL) == ABT_SUCCESS)
            atomic_fetch_add(&tasks_made, 1);
        if ((k & 511) == 511 &&
            ABT_thread_create(P, extra_ult, NULL, ABT_THREAD_ATTR_NULL, NULL) == ABT_SUCCESS)
            atomic_fetch_add(&extras_made, 1);
        ABT_thread_yield();
        ABT_thread me = ABT_THREAD_NULL;
        if (ABT_self_get_thread(&me) != ABT_SUCCESS || me != per[i].self)
            per[i].wrong++;
        if (ABT_self_get_xstream_rank(&r) == ABT_SUCCESS && r != rank) {
            per[i].moves++;
            rank = r;
        }
    }
}

static const char *const iface_names[3] = {"new-style", "legacy MPMC",
                                           "legacy MPMC+u_get_thread"};

static void run(int iface, int kind, int n, int k, const char *round)
{
    const char *kind_name = kind == POP_LIFO ? "LIFO" : "FIFO";
    K = k;
    memset(&up_g, 0, sizeof(up_g));
    memset(per, 0, sizeof(per));
    atomic_store(&tasks_ran, 0);
    atomic_store(&extras_ran, 0);
    atomic_store(&tasks_made, 0);
    atomic_store(&extras_made, 0);
    P = make_pool(iface, kind);

    ABT_thread t[MAXN];
    for (int i = 0; i < n; i++) {
        CHECK_OK(ABT_thread_create(P, worker, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &t[i]));
        per[i].self = t[i];
    }
    ABT_xstream es[2];
    for (int e = 0; e < 2; e++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es[e]));
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    for (int e = 0; e < 2; e++) {
        CHECK_OK(ABT_xstream_join(es[e]));
        CHECK_OK(ABT_xstream_free(&es[e]));
    }
    CHECK_OK(ABT_pool_free(&P));

    int bad = 0, moves = 0;
    for (int i = 0; i < n; i++) {
        moves += per[i].moves;
        if ((per[i].count != K || per[i].wrong) && bad++ < 5)
            BB_FAIL_AT("%s %s, %d ULTs, %s: ULT %d counted %d of %d, %d wrong self", kind_name,
                       iface_names[iface], n, round, i, per[i].count, K, per[i].wrong);
    }
    if (atomic_load(&tasks_ran) != atomic_load(&tasks_made) ||
        atomic_load(&extras_ran) != atomic_load(&extras_made))
        BB_FAIL_AT("%s %s, %d ULTs, %s: tasklets %d of %d ran, extra ULTs %d of %d", kind_name,
                   iface_names[iface], n, round, atomic_load(&tasks_ran),
                   atomic_load(&tasks_made), atomic_load(&extras_ran),
                   atomic_load(&extras_made));
    CHECK_EQ(atomic_load(&tasks_made), n * (K / 64));
    CHECK_EQ(atomic_load(&extras_made), n * (K / 512));
    if (atomic_load(&up_g.n_create) != atomic_load(&up_g.n_free_unit) ||
        atomic_load(&up_g.n_misuse) != 0)
        BB_FAIL_AT("%s %s, %d ULTs, %s: %d unit(s) made, %d given back, %d misuse(s)",
                   kind_name, iface_names[iface], n, round, atomic_load(&up_g.n_create),
                   atomic_load(&up_g.n_free_unit), atomic_load(&up_g.n_misuse));
    CHECK_EQ(atomic_load(&up_g.n_create), n + atomic_load(&tasks_made) + atomic_load(&extras_made));
    CHECK_EQ(atomic_load(&st.n_free), 1);
    printf("%s %s, %d ULTs x %d yields, %s: %d moves between ESs\n", kind_name,
           iface_names[iface], n, K, round, moves);
}

static void run_all(const char *round)
{
    int many = BB_TEST_SIZE(MAXN, 8), k_many = BB_TEST_SIZE(2048, 128);
    int k_few = BB_TEST_SIZE(16384, 4096);
    CHECK_OK(ABT_init(0, NULL));
    for (int iface = 0; iface < 3; iface++) {
        run(iface, POP_FIFO, many, k_many, round);
        run(iface, POP_FIFO, 3, k_few, round);
    }
    run(0, POP_LIFO, many, k_many, round);
    run(1, POP_LIFO, 3, k_few, round);
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(30);
    unsetenv("ABT_OPT_DIRECT_YIELD");
    run_all("default");
    setenv("ABT_OPT_DIRECT_YIELD", "0", 1);
    run_all("ABT_OPT_DIRECT_YIELD=0");
    BB_TEST_END();
}
