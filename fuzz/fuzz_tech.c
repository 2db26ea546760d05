/*
 * fuzz_tech SEED [CYCLES]: a seeded stress of auto's technique transitions
 * (ABT_THREAD_TECHNIQUE=auto, bb_technique_adapt). Each ES runs a driver
 * that alternates quickly between phases of no deviation, all deviating
 * (yield, mutex, cond, eventual, suspend/resume, exit, yield_to, join of a
 * sibling, create_to, tasklet join, self-migration), join-bypass-heavy
 * fork-join and many waiting units, while a chaos ULT migrates and cancels
 * units, prints stacks, stacks schedulers, creates and frees ESs. Every
 * unit checks its stack frames after its deviation (deep recursion, up to
 * near the stack's end) and records its runs; the driver checks each unit
 * ran once, to completion, with the right value.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "fuzz_common.h"
#include "pool_user_util.h"

#define MAXES 4
#define FR 24 /* words per recursion frame */

static int slow, scale_div = 1, max_depth = 30, margin_override; /* sanitizer or valgrind: smaller phases, bigger margins */
static FILE *devnull;
static long frame_bytes = 256;

static uint64_t h(uint64_t id, int level, int i)
{
    uint64_t s = id * 0x9E3779B97F4A7C15ull + (uint64_t)level * 0xBF58476D1CE4E5B9ull + (uint64_t)i;
    return mix(&s);
}

enum kind {
    K_NONE, K_YIELD, K_MUTEX, K_COND, K_EVENTUAL, K_SUSPEND, K_EXIT, K_YIELD_TO, K_JOIN_PREV,
    K_CREATE_TO, K_TASKLET, K_MIGRATE_SELF, K_YIELD3, K_SUSPEND_TO, K_RESUME_YIELD_TO, K_NUM
};

struct phase;
typedef struct rec {
    uint64_t id;
    int kind, depth, deep, idx;
    size_t margin;
    uint64_t expect;
    _Atomic int started, finished, susp_ready;
    int resumed, cancelled, runs_expected;
    uint64_t result;
    ABT_thread th;
    void *user_stack;
    struct phase *ph;
} rec;

typedef struct phase {
    _Atomic int users, closing;
    rec *r;
    int n;
    ABT_eventual ev;
    ABT_mutex m;
    ABT_cond c;
    int flag, n_susp_ready;
} phase;

/* per cycle */
static int nes;
static ABT_xstream xs[MAXES];
static ABT_pool pools[MAXES], pools2[MAXES];
static int user_pool[MAXES];
static phase phases[MAXES];
static _Atomic int stop_chaos;
static _Atomic long n_units, n_transitions, n_phases, n_tmp_es, n_stacked, n_migr, n_cancel,
    n_revive, n_prints, n_triggers, n_set_main, n_fj_nodes, n_deep;
static _Atomic long tech_seen[3]; /* sc ss full */

static uint64_t expected_of(uint64_t id, int depth)
{
    uint64_t v = 7;
    for (int l = 0; l <= depth; l++)
        v = v * 3 + h(id, l, l % FR);
    return v;
}

static void tasklet_fn(void *arg)
{
    atomic_fetch_add((_Atomic int *)arg, 1);
}

typedef struct {
    uint64_t id;
    int depth, dev;
    _Atomic int runs;
    uint64_t result;
} child_rec;

static uint64_t recurse_plain(uint64_t id, int level, int dev);

static void child_fn(void *arg)
{
    child_rec *c = arg;
    atomic_fetch_add(&c->runs, 1);
    c->result = recurse_plain(c->id, c->depth, c->dev);
}

static __attribute__((noinline)) uint64_t recurse_plain(uint64_t id, int level, int dev)
{
    volatile uint64_t frame[FR];
    for (int i = 0; i < FR; i++)
        frame[i] = h(id, level, i);
    uint64_t sub;
    if (level == 0) {
        if (dev)
            ABT_thread_yield();
        sub = 7;
    } else {
        sub = recurse_plain(id, level - 1, dev);
    }
    for (int i = 0; i < FR; i++)
        if (frame[i] != h(id, level, i))
            VIOL("child frame %d word %d changed", level, i);
    return sub * 3 + frame[level % FR];
}

typedef struct {
    ABT_thread parent;
    _Atomic int suspending, ready, runs;
    uint64_t id;
} helper_arg;

/* Target of the parent's ABT_self_suspend_to: resumes the parent. */
static void helper_resumer(void *arg)
{
    helper_arg *a = arg;
    atomic_fetch_add(&a->runs, 1);
    (void)recurse_plain(a->id, 4, 0);
    if (atomic_load(&a->suspending)) {
        int e;
        while ((e = ABT_thread_resume(a->parent)) == ABT_ERR_THREAD)
            ABT_thread_yield();
        if (e != ABT_SUCCESS)
            VIOL("helper resume returned %d", e);
    }
}

/* Suspends itself until the parent's ABT_self_resume_yield_to. */
static void helper_suspender(void *arg)
{
    helper_arg *a = arg;
    atomic_fetch_add(&a->runs, 1);
    uint64_t v = recurse_plain(a->id, 3, 0);
    atomic_store(&a->ready, 1);
    OK(ABT_self_suspend());
    if (v != recurse_plain(a->id, 3, 0))
        VIOL("helper value changed");
}

static int pick_pool_idx(uint64_t *s)
{
    return rnd(s, nes);
}

static __attribute__((noinline)) void deviate(rec *r)
{
    phase *ph = r->ph;
    uint64_t s = r->id * 77 + 5;
    switch (r->kind) {
    case K_NONE:
        break;
    case K_YIELD:
        OK(ABT_thread_yield());
        break;
    case K_YIELD3:
        for (int i = 0; i < 3; i++)
            OK(ABT_thread_yield());
        break;
    case K_MUTEX:
        OK(ABT_mutex_lock(ph->m));
        OK(ABT_thread_yield());
        OK(ABT_mutex_unlock(ph->m));
        break;
    case K_COND:
        OK(ABT_mutex_lock(ph->m));
        while (!ph->flag)
            OK(ABT_cond_wait(ph->c, ph->m));
        OK(ABT_mutex_unlock(ph->m));
        break;
    case K_EVENTUAL:
        OK(ABT_eventual_wait(ph->ev, NULL));
        break;
    case K_SUSPEND:
        OK(ABT_mutex_lock(ph->m));
        atomic_store(&r->susp_ready, 1);
        ph->n_susp_ready++;
        OK(ABT_cond_broadcast(ph->c));
        OK(ABT_mutex_unlock(ph->m));
        OK(ABT_self_suspend());
        break;
    case K_YIELD_TO: {
        rec *sib = r->idx > 0 ? &ph->r[r->idx - 1] : NULL; /* made before this one */
        int e = sib ? ABT_thread_yield_to(sib->th) : ABT_ERR_THREAD;
        if (e != ABT_SUCCESS)
            OK(ABT_thread_yield());
        break;
    }
    case K_JOIN_PREV:
        if (r->idx > 0)
            OK(ABT_thread_join(ph->r[r->idx - 1].th));
        else
            OK(ABT_thread_yield());
        break;
    case K_CREATE_TO: {
        int depth = 1 + rnd(&s, max_depth < 20 ? max_depth + 1 : 20);
        child_rec c = {.id = r->id ^ 0xabc, .depth = depth, .dev = rnd(&s, 2)};
        ABT_pool p;
        OK(ABT_self_get_last_pool(&p));
        ABT_thread t = ABT_THREAD_NULL;
        OK(ABT_thread_create_to(p, child_fn, &c, ABT_THREAD_ATTR_NULL, &t));
        OK(ABT_thread_free(&t));
        if (atomic_load(&c.runs) != 1 || c.result != expected_of(c.id, c.depth))
            VIOL("create_to child runs %d result ok %d", atomic_load(&c.runs),
                 c.result == expected_of(c.id, c.depth));
        break;
    }
    case K_TASKLET: {
        _Atomic int cnt = 0;
        ABT_pool p;
        OK(ABT_self_get_last_pool(&p));
        ABT_task t = ABT_TASK_NULL;
        OK(ABT_task_create(p, tasklet_fn, &cnt, &t));
        OK(ABT_task_free(&t));
        if (atomic_load(&cnt) != 1)
            VIOL("tasklet ran %d times", atomic_load(&cnt));
        OK(ABT_thread_yield());
        break;
    }
    case K_MIGRATE_SELF: {
        ABT_thread self;
        OK(ABT_self_get_thread(&self));
        int k = pick_pool_idx(&s);
        int e = ABT_thread_migrate_to_pool(self, pools[k]);
        if (e != ABT_SUCCESS && e != ABT_ERR_MIGRATION_TARGET && e != ABT_ERR_MIGRATION_NA)
            VIOL("migrate self returned %d", e);
        OK(ABT_thread_yield());
        break;
    }
    case K_SUSPEND_TO: {
        helper_arg a = {.parent = r->th, .id = r->id ^ 0x55};
        ABT_pool p;
        OK(ABT_self_get_last_pool(&p));
        ABT_thread h = ABT_THREAD_NULL;
        OK(ABT_thread_create(p, helper_resumer, &a, ABT_THREAD_ATTR_NULL, &h));
        ABT_unit u;
        OK(ABT_thread_get_unit(h, &u));
        if (ABT_pool_remove(p, u) == ABT_SUCCESS) {
            atomic_store(&a.suspending, 1);
            OK(ABT_self_suspend_to(h));
        }
        OK(ABT_thread_free(&h));
        if (atomic_load(&a.runs) != 1)
            VIOL("suspend_to helper ran %d times", atomic_load(&a.runs));
        break;
    }
    case K_RESUME_YIELD_TO: {
        helper_arg a = {.id = r->id ^ 0x77};
        ABT_pool p; /* the first pool of this ES: a spinner never starves it (strict priority) */
        ABT_xstream me;
        OK(ABT_xstream_self(&me));
        OK(ABT_xstream_get_main_pools(me, 1, &p));
        ABT_thread h = ABT_THREAD_NULL;
        OK(ABT_thread_create(p, helper_suspender, &a, ABT_THREAD_ATTR_NULL, &h));
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        while (!atomic_load(&a.ready) || ABT_thread_get_state(h, &st) != ABT_SUCCESS ||
               st != ABT_THREAD_STATE_BLOCKED)
            OK(ABT_thread_yield());
        int e = ABT_self_resume_yield_to(h);
        if (e != ABT_SUCCESS)
            VIOL("resume_yield_to returned %d", e);
        OK(ABT_thread_free(&h));
        if (atomic_load(&a.runs) != 1)
            VIOL("resume_yield_to helper ran %d times", atomic_load(&a.runs));
        break;
    }
    case K_EXIT:
        r->result = expected_of(r->id, r->depth);
        atomic_fetch_add(&r->finished, 1);
        ABT_thread_exit();
        VIOL("ABT_thread_exit returned");
        break;
    }
}

#define PROBE_ID 0xfeedfacecafebeefull
static char *probe_lo, *probe_hi;
static __attribute__((noinline)) uint64_t recurse(rec *r, int level)
{
    volatile uint64_t frame[FR];
    for (int i = 0; i < FR; i++)
        frame[i] = h(r->id, level, i);
    if (r->id == PROBE_ID) {
        if (level == r->depth)
            probe_hi = (char *)frame;
        if (level == 0)
            probe_lo = (char *)frame;
    }
    uint64_t sub;
    if (level == 0) {
        deviate(r);
        sub = 7;
    } else {
        sub = recurse(r, level - 1);
    }
    for (int i = 0; i < FR; i++)
        if (frame[i] != h(r->id, level, i))
            VIOL("unit %llu kind %d frame %d word %d changed", (unsigned long long)r->id, r->kind,
                 level, i);
    return sub * 3 + frame[level % FR];
}

static int technique_of(ABT_xstream es)
{
    size_t cap = 4096;
    char *buf = calloc(1, cap);
    FILE *f = fmemopen(buf, cap - 1, "w");
    int t = -1;
    if (f) {
        int e = ABT_info_print_xstream(f, es);
        fclose(f);
        const char *p = e == ABT_SUCCESS ? strstr(buf, "technique   : ") : NULL;
        if (p) {
            p += strlen("technique   : ");
            t = !strncmp(p, "sc ", 3) ? 0 : !strncmp(p, "ss ", 3) ? 1 : !strncmp(p, "full ", 5) ? 2 : -1;
        }
    }
    free(buf);
    return t;
}

static int self_technique(void)
{
    ABT_xstream me;
    if (ABT_xstream_self(&me) != ABT_SUCCESS)
        return -1;
    return technique_of(me);
}

static _Atomic long n_tech_changed_across; /* a deep unit saw its ES technique change */

static void work(void *arg)
{
    rec *r = arg;
    atomic_fetch_add(&r->started, 1);
    if (r->deep) {
        ABT_thread self;
        void *stk = NULL;
        size_t sz = 0;
        OK(ABT_self_get_thread(&self));
        OK(ABT_thread_get_stack(self, &stk, &sz));
        char here;
        long avail = stk ? (long)((char *)stk + sz - &here) : 0;
        long d = (avail - (long)r->margin) / frame_bytes;
        if (!stk || avail <= 0 || avail > (long)sz)
            VIOL("stack %p size %zu, sp %p", stk, sz, (void *)&here);
        r->depth = d > 0 ? (int)d : 0;
        r->expect = expected_of(r->id, r->depth);
        atomic_fetch_add(&n_deep, 1);
    }
    int t0 = r->deep && r->kind != K_EXIT ? self_technique() : -1;
    r->result = recurse(r, r->depth);
    if (t0 >= 0) {
        int t1 = self_technique();
        if (t1 >= 0 && t1 != t0)
            atomic_fetch_add(&n_tech_changed_across, 1);
    }
    atomic_fetch_add(&r->finished, 1);
}

/* ---- fork-join trees: the join bypass ---- */
typedef struct {
    int n, dev_pct, use_to;
    uint64_t seed;
    uint64_t result;
} fj_arg;

static uint64_t fib(int n)
{
    uint64_t a = 0, b = 1;
    for (int i = 0; i < n; i++) {
        uint64_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static void fj_node(void *arg)
{
    fj_arg *a = arg;
    atomic_fetch_add(&n_fj_nodes, 1);
    if (a->n < 2) {
        a->result = (uint64_t)a->n;
        if (rnd(&a->seed, 100) < a->dev_pct)
            OK(ABT_thread_yield());
        return;
    }
    fj_arg l = {a->n - 1, a->dev_pct, a->use_to, mix(&a->seed), 0};
    fj_arg r = {a->n - 2, a->dev_pct, a->use_to, mix(&a->seed), 0};
    ABT_pool p;
    OK(ABT_self_get_last_pool(&p));
    ABT_thread t1 = ABT_THREAD_NULL, t2 = ABT_THREAD_NULL;
    if (a->use_to && rnd(&a->seed, 4) == 0)
        OK(ABT_thread_create_to(p, fj_node, &l, ABT_THREAD_ATTR_NULL, &t1));
    else
        OK(ABT_thread_create(p, fj_node, &l, ABT_THREAD_ATTR_NULL, &t1));
    if (rnd(&a->seed, 2)) { /* create then join at once */
        OK(ABT_thread_free(&t1));
        OK(ABT_thread_create(p, fj_node, &r, ABT_THREAD_ATTR_NULL, &t2));
        OK(ABT_thread_free(&t2));
    } else { /* both, then newest first */
        OK(ABT_thread_create(p, fj_node, &r, ABT_THREAD_ATTR_NULL, &t2));
        OK(ABT_thread_free(&t2));
        OK(ABT_thread_free(&t1));
    }
    a->result = l.result + r.result;
}

/* ---- technique sampling ---- */
/* ---- phases ---- */
enum ptype { P_NODEV, P_DEV, P_BYPASS, P_MANYWAIT, P_MIXED, P_NUM };

static void set_attr(rec *r, uint64_t *s, ABT_thread_attr *attr)
{
    *attr = ABT_THREAD_ATTR_NULL;
    int c = rnd(s, 100);
    if (c < 8) {
        static const size_t sizes[] = {8192, 32768, 65536, 262144};
        OK(ABT_thread_attr_create(attr));
        OK(ABT_thread_attr_set_stacksize(*attr, sizes[rnd(s, 4)]));
        r->deep = 1;
    } else if (c < 12) {
        size_t sz = 32768;
        r->user_stack = aligned_alloc(64, sz);
        OK(ABT_thread_attr_create(attr));
        OK(ABT_thread_attr_set_stack(*attr, r->user_stack, sz));
        r->deep = rnd(s, 2);
    }
}

static int pick_kind(uint64_t *s, int dev_pct)
{
    if (rnd(s, 100) >= dev_pct)
        return K_NONE;
    return 1 + rnd(s, K_NUM - 1);
}

static void make_recs(phase *ph, int i, uint64_t *s, int n, int dev_pct, int allow_prot)
{
    ph->n = n;
    ph->r = calloc((size_t)n, sizeof(rec));
    ph->flag = 0;
    ph->n_susp_ready = 0;
    OK(ABT_eventual_create(0, &ph->ev));
    OK(ABT_mutex_create(&ph->m));
    OK(ABT_cond_create(&ph->c));
    for (int k = 0; k < n; k++) {
        rec *r = &ph->r[k];
        r->id = mix(s);
        r->idx = k;
        r->ph = ph;
        r->kind = pick_kind(s, dev_pct);
        if (!allow_prot && (r->kind == K_SUSPEND))
            r->kind = K_YIELD;
        r->runs_expected = 1;
        int dc = rnd(s, 100);
        r->depth = dc < 70 ? rnd(s, 4) : dc < 95 ? rnd(s, max_depth) : 0;
        r->deep = dc >= 95;
        static const size_t margins[] = {1024, 1536, 2048, 3072};
        r->margin = margin_override ? (size_t)margin_override : slow ? 12288 : margins[rnd(s, 4)];
        ABT_thread_attr attr;
        set_attr(r, s, &attr);
        if (!r->deep)
            r->expect = expected_of(r->id, r->depth);
        int target = rnd(s, 100) < 85 ? i : pick_pool_idx(s);
        ABT_pool p = (rnd(s, 4) == 0 && pools2[target] != ABT_POOL_NULL) ? pools2[target]
                                                                        : pools[target];
        int e = ABT_thread_create(p, work, r, attr, &r->th);
        if (e != ABT_SUCCESS)
            VIOL("create returned %d", e);
        if (attr != ABT_THREAD_ATTR_NULL)
            OK(ABT_thread_attr_free(&attr));
    }
    atomic_fetch_add(&n_units, n);
}

static void publish(phase *ph)
{
    atomic_store(&ph->closing, 0);
}

static void close_phase(phase *ph)
{
    atomic_store(&ph->closing, 1);
    while (atomic_load(&ph->users))
        ABT_thread_yield();
}

/* Release the waiters of the sync kinds and resume the suspended ones. */
static void release_waiters(phase *ph, uint64_t *s)
{
    int yields = rnd(s, 4);
    for (int y = 0; y < yields; y++)
        ABT_thread_yield();
    OK(ABT_eventual_set(ph->ev, NULL, 0));
    OK(ABT_mutex_lock(ph->m));
    ph->flag = 1;
    OK(ABT_cond_broadcast(ph->c));
    OK(ABT_mutex_unlock(ph->m));
    int pending = 0;
    for (int k = 0; k < ph->n; k++)
        pending += ph->r[k].kind == K_SUSPEND;
    /* Blocks until every suspender is on its way: a driver that spun here
     * would starve the ES's later pools (strict priority), where some wait. */
    OK(ABT_mutex_lock(ph->m));
    while (ph->n_susp_ready < pending)
        OK(ABT_cond_wait(ph->c, ph->m));
    OK(ABT_mutex_unlock(ph->m));
    long spins = 0;
    while (pending) {
        for (int k = 0; k < ph->n; k++) {
            rec *r = &ph->r[k];
            if (r->kind != K_SUSPEND || r->resumed || !atomic_load(&r->susp_ready))
                continue;
            int e = ABT_thread_resume(r->th);
            if (e == ABT_SUCCESS) {
                r->resumed = 1;
                pending--;
            } else if (e != ABT_ERR_THREAD) {
                VIOL("resume returned %d", e);
            }
        }
        ABT_thread_yield();
        if (++spins % 1000000 == 0)
            fprintf(stderr, "seed %lu: still %d to resume\n", cur_seed, pending);
    }
}

static void check_recs(phase *ph, const char *what)
{
    for (int k = 0; k < ph->n; k++) {
        rec *r = &ph->r[k];
        int st = atomic_load(&r->started), fi = atomic_load(&r->finished);
        if (r->cancelled) {
            if (st > r->runs_expected || fi > st)
                VIOL("%s: cancelled unit started %d finished %d", what, st, fi);
            if (fi == st && st == r->runs_expected && r->result != r->expect)
                VIOL("%s: cancelled unit finished with a wrong value", what);
            continue;
        }
        if (st != r->runs_expected || fi != r->runs_expected)
            VIOL("%s: unit %d kind %d started %d finished %d, expected %d", what, k, r->kind, st,
                 fi, r->runs_expected);
        else if (r->result != r->expect)
            VIOL("%s: unit %d kind %d deep %d depth %d: wrong value", what, k, r->kind, r->deep,
                 r->depth);
    }
}

static void free_phase(phase *ph)
{
    for (int k = 0; k < ph->n; k++) {
        OK(ABT_thread_free(&ph->r[k].th));
        free(ph->r[k].user_stack);
    }
    OK(ABT_eventual_free(&ph->ev));
    OK(ABT_mutex_free(&ph->m));
    OK(ABT_cond_free(&ph->c));
    free(ph->r);
    ph->r = NULL;
    ph->n = 0;
}

static void join_all(phase *ph, uint64_t *s)
{
    int how = rnd(s, 4);
    int n = ph->n;
    if (how == 0) {
        ABT_thread *ths = malloc(sizeof(ABT_thread) * (size_t)n);
        for (int k = 0; k < n; k++)
            ths[k] = ph->r[k].th;
        OK(ABT_thread_join_many(n, ths));
        free(ths);
    } else if (how == 1) {
        for (int k = 0; k < n; k++)
            OK(ABT_thread_join(ph->r[k].th));
    } else if (how == 2) {
        for (int k = n - 1; k >= 0; k--)
            OK(ABT_thread_join(ph->r[k].th));
    } else {
        for (int k = 0; k < n; k++)
            OK(ABT_thread_join(ph->r[(k * 7919) % n].th));
        for (int k = 0; k < n; k++)
            OK(ABT_thread_join(ph->r[k].th));
    }
}

static void revive_some(phase *ph, uint64_t *s, int i)
{
    int nrev = rnd(s, 8);
    for (int j = 0; j < nrev && ph->n; j++) {
        rec *r = &ph->r[rnd(s, ph->n)];
        if (r->cancelled || r->runs_expected > 1)
            continue;
        static const int kinds[] = {K_NONE, K_YIELD, K_MUTEX, K_EXIT, K_YIELD3, K_EVENTUAL};
        r->kind = kinds[rnd(s, 6)];
        r->runs_expected = 2;
        r->depth = r->deep ? r->depth : rnd(s, max_depth + 1);
        if (!r->deep)
            r->expect = expected_of(r->id, r->depth);
        int k = rnd(s, 3) ? i : pick_pool_idx(s);
        int e = rnd(s, 2) ? ABT_thread_revive(pools[k], work, r, &r->th)
                          : ABT_thread_revive_to(pools[k], work, r, &r->th);
        if (e != ABT_SUCCESS) {
            VIOL("revive returned %d", e);
            r->runs_expected = 1;
            continue;
        }
        atomic_fetch_add(&n_revive, 1);
        OK(ABT_thread_join(r->th));
    }
}

static void run_phase(int i, uint64_t *s, int type)
{
    phase *ph = &phases[i];
    int scale = scale_div;
    atomic_fetch_add(&n_phases, 1);
    if (type == P_BYPASS) {
        int variant = rnd(s, 3);
        if (variant == 0) { /* flat create + free */
            int n = (2000 + rnd(s, 6000)) / scale;
            ABT_pool p = pools[i];
            for (int k = 0; k < n; k++) {
                _Atomic int cnt = 0;
                ABT_thread t;
                rec rr = {.id = mix(s), .kind = K_NONE, .depth = rnd(s, 6), .runs_expected = 1};
                rr.expect = expected_of(rr.id, rr.depth);
                (void)cnt;
                OK(ABT_thread_create(p, work, &rr, ABT_THREAD_ATTR_NULL, &t));
                OK(ABT_thread_free(&t));
                if (atomic_load(&rr.started) != 1 || atomic_load(&rr.finished) != 1 ||
                    rr.result != rr.expect)
                    VIOL("bypass unit %d: started %d finished %d", k, atomic_load(&rr.started),
                         atomic_load(&rr.finished));
            }
            atomic_fetch_add(&n_units, n);
        } else {
            int n = (slow ? 10 : 13) + rnd(s, 4);
            int dev_pct = rnd(s, 4) ? 0 : rnd(s, 100);
            int use_to = rnd(s, 2);
            fj_arg a = {.n = n, .dev_pct = dev_pct, .use_to = use_to, .seed = mix(s)};
            ABT_thread t;
            OK(ABT_thread_create(pools[i], fj_node, &a, ABT_THREAD_ATTR_NULL, &t));
            OK(ABT_thread_free(&t));
            if (a.result != fib(a.n))
                VIOL("fork-join fib(%d) = %llu", a.n, (unsigned long long)a.result);
        }
        return;
    }
    int n, dev;
    switch (type) {
    case P_NODEV:
        n = 256 + rnd(s, 6000);
        dev = 0;
        break;
    case P_DEV:
        n = 256 + rnd(s, 3500);
        dev = 100;
        break;
    case P_MANYWAIT:
        n = 200 + rnd(s, 1200);
        dev = rnd(s, 2) ? 0 : rnd(s, 100);
        break;
    default:
        n = 256 + rnd(s, 2000);
        dev = rnd(s, 101);
        break;
    }
    n /= scale;
    make_recs(ph, i, s, n, dev, 1);
    publish(ph);
    release_waiters(ph, s);
    if (type == P_MANYWAIT) {
        for (int k = n - 1; k >= 0; k--)
            OK(ABT_thread_join(ph->r[k].th));
    } else {
        join_all(ph, s);
    }
    close_phase(ph);
    check_recs(ph, type == P_DEV ? "dev" : type == P_NODEV ? "nodev" : "mixed");
    revive_some(ph, s, i);
    check_recs(ph, "revived");
    free_phase(ph);
}

/* ---- user-defined scheduler ---- */
static void user_sched_run(ABT_sched sched)
{
    int np = 0;
    OK(ABT_sched_get_num_pools(sched, &np));
    ABT_pool ps[4];
    OK(ABT_sched_get_pools(sched, np, 0, ps));
    for (unsigned it = 0;; it++) {
        for (int k = 0; k < np; k++) {
            ABT_thread t = ABT_THREAD_NULL;
            OK(ABT_pool_pop_thread(ps[k], &t));
            if (t != ABT_THREAD_NULL) {
                OK(ABT_self_schedule(t, ABT_POOL_NULL));
                break;
            }
        }
        if ((it & 15) == 0) {
            ABT_bool stop = ABT_FALSE;
            OK(ABT_xstream_check_events(sched));
            OK(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
        }
    }
}
static ABT_sched_def user_sched_def = {.type = ABT_SCHED_TYPE_ULT, .run = user_sched_run};

static ABT_sched make_sched(uint64_t *s, int i, int allow_user)
{
    ABT_pool ps[2] = {pools[i], pools2[i]};
    int np = pools2[i] != ABT_POOL_NULL ? 2 : 1;
    ABT_sched sch = ABT_SCHED_NULL;
    int c = rnd(s, 10);
    if (allow_user && c == 0) {
        ABT_sched_config cfg;
        OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 1, ABT_sched_config_var_end));
        OK(ABT_sched_create(&user_sched_def, np, ps, cfg, &sch));
        OK(ABT_sched_config_free(&cfg));
    } else {
        static const ABT_sched_predef predefs[] = {ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT,
                                                   ABT_SCHED_PRIO, ABT_SCHED_RANDWS,
                                                   ABT_SCHED_DEFAULT};
        OK(ABT_sched_create_basic(predefs[rnd(s, 5)], np, ps, ABT_SCHED_CONFIG_NULL, &sch));
    }
    return sch;
}

/* ---- drivers ---- */
typedef struct {
    int i;
    int nph;
    uint64_t seed;
} driver_arg;

static void driver(void *arg)
{
    driver_arg *d = arg;
    uint64_t s = d->seed;
    int last = -1, type = 0, left = 0;
    for (int p = 0; p < d->nph; p++) {
        if (left-- <= 0) { /* a regime of a few phases of one type */
            type = rnd(&s, P_NUM + 2);
            if (type >= P_NUM)
                type = P_BYPASS;
            left = rnd(&s, 3);
        }
        run_phase(d->i, &s, type);
        ABT_xstream me;
        OK(ABT_xstream_self(&me));
        int t = technique_of(me);
        if (getenv("FT_TRACE")) {
            fprintf(stderr, "es %d phase %d type %d -> %d\n", d->i, p, type, t);
            if (getenv("FT_TRACE")[0] == '2')
                ABT_info_print_xstream(stderr, me);
        }
        if (t >= 0) {
            atomic_fetch_add(&tech_seen[t], 1);
            if (last >= 0 && t != last)
                atomic_fetch_add(&n_transitions, 1);
            last = t;
        }
        if (d->i > 0 && rnd(&s, 12) == 0) { /* a new main scheduler on this running ES */
            ABT_sched sch = make_sched(&s, d->i, !user_pool[d->i]);
            int e = ABT_xstream_set_main_sched(me, sch);
            if (e != ABT_SUCCESS) {
                VIOL("set_main_sched returned %d", e);
                ABT_sched_free(&sch);
            } else {
                atomic_fetch_add(&n_set_main, 1);
            }
        }
    }
}

/* ---- chaos ---- */
static void with_phase(int k, uint64_t *s, int op)
{
    phase *ph = &phases[k];
    atomic_fetch_add(&ph->users, 1);
    if (!atomic_load(&ph->closing) && ph->n > 0) {
        rec *r = &ph->r[rnd(s, ph->n)];
        if (op == 0) {
            int to = pick_pool_idx(s);
            int e = ABT_thread_migrate_to_pool(r->th, pools[to]);
            if (e == ABT_SUCCESS)
                atomic_fetch_add(&n_migr, 1);
            else if (e != ABT_ERR_MIGRATION_TARGET && e != ABT_ERR_MIGRATION_NA &&
                     e != ABT_ERR_INV_THREAD)
                VIOL("migrate returned %d", e);
        } else if (op == 2) {
            int e = ABT_info_print_thread_stack(devnull, r->th);
            if (e != ABT_SUCCESS)
                VIOL("print_thread_stack returned %d", e);
            atomic_fetch_add(&n_prints, 1);
        } else if (r->kind == K_NONE && !r->deep && r->runs_expected == 1) {
            r->cancelled = 1;
            OK(ABT_thread_cancel(r->th));
            atomic_fetch_add(&n_cancel, 1);
        }
    }
    atomic_fetch_sub(&ph->users, 1);
}

/* A phase of `n` records whose waits never block: its eventual is set and
 * its flag raised from the start. */
static void open_settled_phase(phase *ph, int n)
{
    *ph = (phase){0};
    ph->n = n;
    ph->r = calloc((size_t)n, sizeof(rec));
    OK(ABT_eventual_create(0, &ph->ev));
    OK(ABT_mutex_create(&ph->m));
    OK(ABT_cond_create(&ph->c));
    ph->flag = 1;
    OK(ABT_eventual_set(ph->ev, NULL, 0));
}

static void batch_in(ABT_pool p, uint64_t *s, int n, const char *what)
{
    phase ph;
    open_settled_phase(&ph, n);
    int dev = rnd(s, 2) ? 100 : 0;
    for (int k = 0; k < n; k++) {
        rec *r = &ph.r[k];
        r->id = mix(s);
        r->idx = k;
        r->ph = &ph;
        r->kind = pick_kind(s, dev);
        if (r->kind == K_SUSPEND || r->kind == K_MIGRATE_SELF)
            r->kind = K_YIELD;
        r->runs_expected = 1;
        r->depth = rnd(s, 10);
        r->expect = expected_of(r->id, r->depth);
        OK(ABT_thread_create(p, work, r, ABT_THREAD_ATTR_NULL, &r->th));
    }
    atomic_fetch_add(&n_units, n);
    for (int k = 0; k < n; k++)
        OK(ABT_thread_join(ph.r[k].th));
    check_recs(&ph, what);
    free_phase(&ph);
}

static ABT_mutex chaos_m;
static ABT_cond chaos_c;

static void chaos(void *arg)
{
    uint64_t s = *(uint64_t *)arg;
    double last_heavy = ABT_get_wtime();
    while (!atomic_load(&stop_chaos)) {
        int op = rnd(&s, 1000);
        if (op >= 700 && op < 705) { /* heavy ones: at most every 20 ms */
            double now = ABT_get_wtime();
            if (now - last_heavy < 0.02)
                op = 999;
            else
                last_heavy = now;
        }
        if (op < 500) {
            with_phase(rnd(&s, nes), &s, 0);
        } else if (op < 600) {
            with_phase(rnd(&s, nes), &s, 1);
        } else if (op < 650) {
            with_phase(rnd(&s, nes), &s, 2);
        } else if (op < 700) {
            int e = ABT_info_print_thread_stacks_in_pool(devnull, pools[rnd(&s, nes)]);
            if (e != ABT_SUCCESS && e != ABT_ERR_POOL)
                VIOL("print stacks returned %d", e);
            atomic_fetch_add(&n_prints, 1);
        } else if (op < 702) {
            OK(ABT_info_trigger_print_all_thread_stacks(devnull, 2.0, NULL, NULL));
            atomic_fetch_add(&n_triggers, 1);
        } else if (op < 703) { /* a short-lived ES */
            ABT_pool p;
            OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
            ABT_sched sch;
            OK(ABT_sched_create_basic(rnd(&s, 2) ? ABT_SCHED_BASIC : ABT_SCHED_BASIC_WAIT, 1, &p,
                                      ABT_SCHED_CONFIG_NULL, &sch));
            ABT_xstream x;
            OK(ABT_xstream_create(sch, &x));
            batch_in(p, &s, (300 + rnd(&s, 3000)) / scale_div, "tmp es");
            OK(ABT_xstream_free(&x));
            atomic_fetch_add(&n_tmp_es, 1);
        } else if (op < 705) { /* a stacked scheduler */
            ABT_pool p;
            OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
            ABT_sched sch;
            OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &sch));
            int k = rnd(&s, nes);
            /* units first: the stacked scheduler ends once its pool is drained */
            phase ph;
            int n = (100 + rnd(&s, 1500)) / scale_div;
            open_settled_phase(&ph, n);
            int dev = rnd(&s, 101);
            for (int j = 0; j < n; j++) {
                rec *r = &ph.r[j];
                r->id = mix(&s);
                r->idx = j;
                r->ph = &ph;
                r->kind = pick_kind(&s, dev);
                if (r->kind == K_SUSPEND || r->kind == K_MIGRATE_SELF)
                    r->kind = K_YIELD;
                r->runs_expected = 1;
                r->depth = rnd(&s, 10);
                r->expect = expected_of(r->id, r->depth);
                OK(ABT_thread_create(p, work, r, ABT_THREAD_ATTR_NULL, &r->th));
            }
            atomic_fetch_add(&n_units, n);
            int e = ABT_pool_add_sched(pools[k], sch);
            if (e != ABT_SUCCESS)
                VIOL("add_sched returned %d", e);
            for (int j = 0; j < n; j++)
                OK(ABT_thread_join(ph.r[j].th));
            check_recs(&ph, "stacked");
            free_phase(&ph);
            atomic_fetch_add(&n_stacked, 1);
        } else {
            /* let the others run */
        }
        if (rnd(&s, 64) == 0) { /* block a moment: the ES's later pools run meanwhile */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            ts.tv_nsec += 200000;
            if (ts.tv_nsec >= 1000000000) {
                ts.tv_sec++;
                ts.tv_nsec -= 1000000000;
            }
            OK(ABT_mutex_lock(chaos_m));
            int e = ABT_cond_timedwait(chaos_c, chaos_m, &ts);
            if (e != ABT_ERR_COND_TIMEDOUT && e != ABT_SUCCESS)
                VIOL("timedwait returned %d", e);
            OK(ABT_mutex_unlock(chaos_m));
        } else {
            OK(ABT_thread_yield());
        }
    }
}

/* ---- one cycle ---- */
static void cycle(uint64_t *s)
{
    OK(ABT_init(0, NULL));
    nes = 1 + 1 + rnd(s, MAXES - 1); /* 2..4 */
    memset(xs, 0, sizeof(xs));
    for (int i = 0; i < nes; i++) {
        user_pool[i] = 0;
        pools2[i] = ABT_POOL_NULL;
        if (i > 0 && rnd(s, 6) == 0) {
            ABT_pool_user_def def = up_new_def(1);
            OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pools[i]));
            OK(ABT_pool_user_def_free(&def));
            user_pool[i] = 1;
        } else {
            static const ABT_pool_kind kinds[] = {ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT,
                                                  ABT_POOL_RANDWS};
            OK(ABT_pool_create_basic(kinds[rnd(s, 3)], ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                                     &pools[i]));
        }
        if (rnd(s, 3) == 0)
            OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools2[i]));
        memset(&phases[i], 0, sizeof(phases[i]));
        atomic_store(&phases[i].closing, 1);
    }
    /* the primary ES: a new main scheduler on the running ES */
    OK(ABT_xstream_self(&xs[0]));
    ABT_sched sch0 = make_sched(s, 0, 1);
    OK(ABT_xstream_set_main_sched(xs[0], sch0));
    for (int i = 1; i < nes; i++)
        OK(ABT_xstream_create(make_sched(s, i, !user_pool[i]), &xs[i]));
    atomic_store(&stop_chaos, 0);
    OK(ABT_mutex_create(&chaos_m));
    OK(ABT_cond_create(&chaos_c));
    uint64_t cseed = mix(s);
    ABT_thread ch;
    ABT_thread_attr big = ABT_THREAD_ATTR_NULL;
    const char *tss = getenv("ABT_THREAD_STACKSIZE");
    if (tss && atol(tss) < 16384) { /* drivers and chaos print: not on a tiny stack */
        OK(ABT_thread_attr_create(&big));
        OK(ABT_thread_attr_set_stacksize(big, 262144));
    }
    OK(ABT_thread_create(pools[0], chaos, &cseed, big, &ch));
    driver_arg da[MAXES];
    ABT_thread dt[MAXES];
    int nph = getenv("FT_PHASES") ? atoi(getenv("FT_PHASES")) : 20 + rnd(s, 12);
    for (int i = 0; i < nes; i++)
        da[i] = (driver_arg){i, nph, mix(s)};
    for (int i = 1; i < nes; i++)
        OK(ABT_thread_create(pools[i], driver, &da[i], big, &dt[i]));
    if (big != ABT_THREAD_ATTR_NULL)
        OK(ABT_thread_attr_free(&big));
    driver(&da[0]);
    for (int i = 1; i < nes; i++)
        OK(ABT_thread_free(&dt[i]));
    atomic_store(&stop_chaos, 1);
    OK(ABT_thread_free(&ch));
    OK(ABT_mutex_free(&chaos_m));
    OK(ABT_cond_free(&chaos_c));
    for (int i = 1; i < nes; i++)
        OK(ABT_xstream_free(&xs[i]));
    for (int i = 1; i < nes; i++)
        if (user_pool[i])
            OK(ABT_pool_free(&pools[i]));
    OK(ABT_finalize());
}

int main(int argc, char **argv)
{
    cur_seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    int cycles = argc > 2 ? atoi(argv[2]) : 2;
    slow = getenv("FT_SLOW") != NULL;
    if (slow)
        max_depth = 10;
    if (getenv("FT_MAXDEPTH"))
        max_depth = atoi(getenv("FT_MAXDEPTH"));
    if (getenv("FT_MARGIN"))
        margin_override = atoi(getenv("FT_MARGIN"));
    if (getenv("FT_SCALE"))
        scale_div = atoi(getenv("FT_SCALE"));
    devnull = fopen("/dev/null", "w");
    {
        phase ph = {0};
        rec pr = {.id = PROBE_ID, .kind = K_NONE, .depth = 10, .ph = &ph};
        (void)recurse(&pr, 10);
        frame_bytes = (probe_hi - probe_lo) / 10 + 8;
        if (frame_bytes < 200)
            frame_bytes = 200;
        if (getenv("FT_VERBOSE"))
            fprintf(stderr, "frame %ld bytes\n", frame_bytes);
    }
    uint64_t s = cur_seed * 0x1234567ull + 99;
    for (int c = 0; c < cycles; c++)
        cycle(&s);
    printf("seed %lu: units %ld phases %ld transitions %ld (sc %ld ss %ld full %ld) deep %ld "
           "fj %ld tmp_es %ld stacked %ld migr %ld cancel %ld revive %ld prints %ld trig %ld "
           "set_main %ld changed_across %ld violations %d\n",
           cur_seed, atomic_load(&n_units), atomic_load(&n_phases), atomic_load(&n_transitions),
           atomic_load(&tech_seen[0]), atomic_load(&tech_seen[1]), atomic_load(&tech_seen[2]),
           atomic_load(&n_deep), atomic_load(&n_fj_nodes), atomic_load(&n_tmp_es),
           atomic_load(&n_stacked), atomic_load(&n_migr), atomic_load(&n_cancel),
           atomic_load(&n_revive), atomic_load(&n_prints), atomic_load(&n_triggers),
           atomic_load(&n_set_main), atomic_load(&n_tech_changed_across), atomic_load(&violations));
    return atomic_load(&violations) ? 1 : 0;
}
