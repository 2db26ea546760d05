/*
 * fuzz_life: a seeded random-operation fuzzer of unit and ES lifecycles.
 *
 * Build against a build directory of the library (build, build-asan,
 * build-tsan), with that build's sanitizer flags:
 *   fuzz/build.sh fuzz_life build /tmp/fuzz_life
 *   fuzz/build.sh fuzz_life build-asan /tmp/fuzz_life_asan -fsanitize=address,undefined
 *   fuzz/build.sh fuzz_life build-tsan /tmp/fuzz_life_tsan -fsanitize=thread
 * Run:
 *   fuzz_life SEED [NSEEDS [OPS]]   seeds SEED .. SEED+NSEEDS-1 in one process
 *                                   (ABT_init .. ABT_finalize each), OPS driver
 *                                   operations per seed (default 300)
 *   fuzz/run_fuzz.sh BIN FIRST_SEED SEEDS_PER_PROCESS PROCESSES [OPS]
 *                                   the same under the 8 techniques, with the
 *                                   shortcuts on and off
 * Environment: ABT_THREAD_TECHNIQUE and the ABT_OPT_* shortcuts as usual;
 * FUZZ_TIMEOUT (seconds per seed, default 30), FUZZ_VERBOSE (counts per
 * seed), FUZZ_HANG_PAUSE (on a hang, wait for a debugger instead of exiting;
 * then: gdb -p PID -x scripts/bobbin-gdb.py -ex 'bobbin ults').
 * Exit status 0 when every seed passed; 1 on a model violation (printed with
 * the seed); 124 when the watchdog fired (a hang). Scheduling is not
 * deterministic: a seed fixes the operations, not their interleaving, so a
 * failing seed is rerun a few times, or under the same load.
 *
 * Actors:
 *  - the driver (the primary ULT): creates named/unnamed ULTs and tasklets
 *    (create, create_on_xstream, create_to), joins, frees, join_many,
 *    free_many, cancels, revives (revive, revive_to, task_revive), migrates;
 *  - the units themselves, each running a random script: yield, yield_to,
 *    self_yield_to/suspend_to/exit_to of a unit popped from the shared pool,
 *    suspend (resumed by the resumer or by a resume_*_to of another unit),
 *    create children (also create_to), join others (several joiners at once),
 *    cancel others, migrate themselves and others (pool, sched, xstream,
 *    migrate), ABT_thread_exit/ABT_self_exit at a random call depth,
 *    ABT_xstream_exit, ABT_xstream_cancel;
 *  - one external "resumer" thread: resumes suspended units and cancels
 *    random ones;
 *  - one external "manager" thread per secondary ES: cancels, joins,
 *    revives, frees and re-creates its ES at random.
 *
 * The model: a unit's body starts at most once per life (create or revive),
 * and exactly once unless it was cancelled; a join returns only once the
 * body has ended (returned or exited) or a cancel was asked for; no body
 * runs after a join of its life returned; no unit runs on an ES whose join
 * has returned (and which has not been revived since); handles are used only
 * while pinned (never after free); ABT_finalize returns and (under ASan)
 * nothing leaks.
 */
#define _GNU_SOURCE
#include <abt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_common.h"

#define NREC 96
#define NES 3 /* secondary ESs */
#define MAX_UNITS 1500

/* ---- records of named units ---- */
enum { R_FREE, R_ALLOC, R_LIVE, R_EXCL };
typedef struct {
    atomic_int st;
    atomic_int pins;
    ABT_thread h; /* valid while pinned in R_LIVE, or held in R_EXCL */
    int is_task;
    atomic_int life;
    atomic_int started, finished, cancel_req, joined_life;
    atomic_int wants_resume; /* 0 no, 1 suspended (or about to be), 2 claimed */
    /* 0; 1 a cancel was issued (for the rest of this life); 2 the unit is in
     * a section where a cancel would leak what it holds (a pin across a
     * yield or a join, a record it is creating with create_to): cancellers
     * skip it then, and it enters no such section once a cancel is issued */
    atomic_int cguard;
    atomic_int held; /* debugging: 1 + the record this unit has pinned */
    atomic_long seq;
    uint64_t seed;
} rec_t;
static rec_t recs[NREC];
static atomic_long seq_counter;

static int pin(rec_t *r)
{
    atomic_fetch_add(&r->pins, 1);
    if (atomic_load(&r->st) != R_LIVE) {
        atomic_fetch_sub(&r->pins, 1);
        return 0;
    }
    return 1;
}
/* For a resume: a record the driver holds (to free or revive it) waits in
 * ABT_thread_join for the unit's end, so its handle stays valid; the driver
 * waits for such pins again before the free itself. */
static int pin_resume(rec_t *r)
{
    atomic_fetch_add(&r->pins, 1);
    int st = atomic_load(&r->st);
    if (st != R_LIVE && st != R_EXCL) {
        atomic_fetch_sub(&r->pins, 1);
        return 0;
    }
    return 1;
}
static void unpin(rec_t *r) { atomic_fetch_sub(&r->pins, 1); }

/* Cancels a pinned record unless it is in a guarded section. */
static void try_cancel(rec_t *r, int task_api)
{
    int z = 0;
    if (!atomic_compare_exchange_strong(&r->cguard, &z, 1) && z != 1)
        return;
    atomic_store(&r->cancel_req, 1);
    int ret = task_api ? ABT_task_cancel(r->h) : ABT_thread_cancel(r->h);
    if (ret != ABT_SUCCESS)
        fprintf(stderr, "VIOLATION seed=%lu: cancel returned %d\n", cur_seed, ret),
            atomic_fetch_add(&violations, 1);
}

/* ---- execution streams ---- */
enum { E_RUNNING, E_JOINED, E_CHANGING };
typedef struct {
    _Atomic(ABT_xstream) h;
    atomic_int state;
    atomic_int pins, freeing;
    ABT_pool pool; /* its own pool, user-owned, survives the ES */
    pthread_t mgr;
    uint64_t rng;
} es_t;
static es_t ess[NES];
static ABT_pool pool0, shared; /* primary's own pool, pool shared by all ESs */
static ABT_xstream primary;

static int es_pin(es_t *e)
{
    atomic_fetch_add(&e->pins, 1);
    if (atomic_load(&e->freeing) || atomic_load(&e->h) == ABT_XSTREAM_NULL) {
        atomic_fetch_sub(&e->pins, 1);
        return 0;
    }
    return 1;
}
static void es_unpin(es_t *e) { atomic_fetch_sub(&e->pins, 1); }

/* ---- global state ---- */
static atomic_int final_phase, stop_resumer, stop_mgrs;
static atomic_int total_units, creating;
static atomic_int unnamed_created, unnamed_started, unnamed_finished;
static atomic_int saw_own_es_terminated;
static atomic_int stat_exit, stat_xexit, stat_cancel_ok, stat_revive, stat_resume_to,
    stat_yield_to_pop, stat_es_free, stat_es_revive;

static ABT_pool random_pool(uint64_t *s)
{
    int k = rnd(s, NES + 2);
    if (k == 0)
        return pool0;
    if (k == 1)
        return shared;
    return ess[k - 2].pool;
}

static void check_es(void)
{
    ABT_xstream x;
    if (ABT_self_get_xstream(&x) != ABT_SUCCESS) {
        VIOL("self_get_xstream failed in a unit");
        return;
    }
    for (int k = 0; k < NES; k++)
        if (atomic_load(&ess[k].h) == x && atomic_load(&ess[k].state) == E_JOINED)
            VIOL("a unit runs on ES slot %d after its join returned", k);
    ABT_xstream_state st;
    if (ABT_xstream_get_state(x, &st) == ABT_SUCCESS && st == ABT_XSTREAM_STATE_TERMINATED)
        atomic_fetch_add(&saw_own_es_terminated, 1);
}

/* ---- the body of every unit ---- */
typedef struct {
    rec_t *rec; /* NULL: unnamed */
    int life;
    long myseq;
    uint64_t rng;
    int is_task;
} ctx_t;

static void body(void *arg);
static void unnamed_body(void *arg);

static int guard_enter(ctx_t *c)
{
    if (!c->rec)
        return 1; /* unnamed units are never cancelled */
    int z = 0;
    return atomic_compare_exchange_strong(&c->rec->cguard, &z, 2);
}
static void guard_leave(ctx_t *c)
{
    if (c->rec)
        atomic_store(&c->rec->cguard, 0);
}

static void note_start(ctx_t *c)
{
    if (c->rec) {
        if (atomic_load(&c->rec->life) != c->life)
            VIOL("rec %d: body of life %d runs in life %d", (int)(c->rec - recs), c->life,
                 atomic_load(&c->rec->life));
        if (atomic_fetch_add(&c->rec->started, 1) != 0)
            VIOL("rec %d life %d: body started twice", (int)(c->rec - recs), c->life);
    } else {
        atomic_fetch_add(&unnamed_started, 1);
    }
}
static void note_alive(ctx_t *c)
{
    if (c->rec && atomic_load(&c->rec->joined_life) == c->life)
        VIOL("rec %d life %d: body runs after a join returned", (int)(c->rec - recs), c->life);
    check_es();
}
static void note_end(ctx_t *c)
{
    note_alive(c);
    if (c->rec)
        atomic_store(&c->rec->finished, 1);
    else
        atomic_fetch_add(&unnamed_finished, 1);
}

/* Creates a unit; named ones get a record. Returns 1 if created. */
static int make_unit(uint64_t *s, int named, int is_task, int how, ABT_pool pool, int esk);

static rec_t *random_live(uint64_t *s)
{
    for (int tries = 0; tries < 4; tries++) {
        rec_t *r = &recs[rnd(s, NREC)];
        if (pin(r))
            return r;
    }
    return NULL;
}

static void do_exit(ctx_t *c, int depth, int how)
{
    volatile char pad[96];
    pad[depth % 96] = (char)depth;
    if (depth > 0) {
        do_exit(c, depth - 1, how);
        pad[0]++;
        VIOL("exit returned through a frame");
        return;
    }
    note_end(c);
    atomic_fetch_add(&stat_exit, 1);
    int r = how ? ABT_self_exit() : ABT_thread_exit();
    VIOL("exit returned %d", r);
}

static void push_back(ABT_thread t);

/* how 0: ABT_self_suspend; 1: ABT_self_suspend_to a popped target; 2:
 * ABT_self_resume_suspend_to a claimed suspended record trec. */
static void suspend_self(ctx_t *c, int how, ABT_thread target, rec_t *trec)
{
    rec_t *r = c->rec;
    atomic_store(&r->wants_resume, 1);
    int ret;
    if (how == 0)
        ret = ABT_self_suspend();
    else if (how == 1)
        ret = ABT_self_suspend_to(target);
    else
        ret = ABT_self_resume_suspend_to(target);
    if (ret == ABT_SUCCESS) {
        if (how == 2)
            atomic_fetch_add(&stat_resume_to, 1);
        return;
    }
    /* Not suspended: take the request back (a resumer that claimed it
     * meanwhile fails with ABT_ERR_THREAD and gives it back). */
    for (;;) {
        int one = 1;
        if (atomic_compare_exchange_strong(&r->wants_resume, &one, 0))
            break;
        sched_yield(); /* a claimer gives it back at once; no ABT yield: a cancel there would strand it */
    }
    if (how == 1 && ret == ABT_ERR_INV_THREAD)
        push_back(target); /* a tasklet */
    else if (how == 2 && ret == ABT_ERR_THREAD)
        atomic_store(&trec->wants_resume, 1); /* not suspended yet: give it back */
    else
        VIOL("suspend(how %d) returned %d", how, ret);
}

/* Takes a suspended record for a resume_*_to: pinned, claimed (wants_resume 2). */
static rec_t *claim_suspended(ctx_t *c)
{
    int start = rnd(&c->rng, NREC);
    for (int i = 0; i < NREC; i++) {
        rec_t *r = &recs[(start + i) % NREC];
        if (atomic_load(&r->wants_resume) != 1)
            continue;
        if (r == c->rec || !pin_resume(r))
            continue;
        int one = 1;
        if (!r->is_task && atomic_compare_exchange_strong(&r->wants_resume, &one, 2)) {
            /* claimed: it cannot end (nor be freed) before we resume it */
            unpin(r);
            return r;
        }
        unpin(r);
    }
    return NULL;
}

static void push_back(ABT_thread t)
{
    ABT_unit u;
    OK(ABT_thread_get_unit(t, &u));
    OK(ABT_pool_push(shared, u));
}

static void ult_step(ctx_t *c)
{
    int op = rnd(&c->rng, 100);
    int fin = atomic_load(&final_phase);
    if (op < 18) {
        OK(ABT_thread_yield());
    } else if (op < 24) { /* yield_to a record */
        rec_t *r = random_live(&c->rng);
        if (r && c->rec)
            atomic_store(&c->rec->held, (int)(r - recs) + 1);
        if (r) {
            if (!r->is_task && r != c->rec && guard_enter(c)) {
                int ret = ABT_thread_yield_to(r->h);
                guard_leave(c);
                if (ret != ABT_SUCCESS) /* a pinned ULT, not ourselves */
                    VIOL("yield_to returned %d", ret);
            }
            unpin(r);
        }
    } else if (op < 28) { /* pop from the shared pool and hand over */
        ABT_thread t = ABT_THREAD_NULL;
        OK(ABT_pool_pop_thread(shared, &t));
        if (t != ABT_THREAD_NULL) {
            int how = rnd(&c->rng, 10);
            int ret;
            if (how < 6 || !c->rec) {
                ret = ABT_self_yield_to(t);
            } else if (how < 8 && !fin) {
                suspend_self(c, 1, t, NULL);
                ret = ABT_SUCCESS;
                atomic_fetch_add(&stat_yield_to_pop, 1);
                return;
            } else {
                /* exit_to: ends us */
                note_end(c);
                atomic_fetch_add(&stat_exit, 1);
                ret = ABT_self_exit_to(t);
                if (ret == ABT_ERR_INV_THREAD) { /* a tasklet: we are still here */
                    atomic_store(&c->rec->finished, 0);
                    push_back(t);
                    return;
                }
                VIOL("self_exit_to returned %d", ret);
                return;
            }
            if (ret == ABT_ERR_INV_THREAD)
                push_back(t);
            else if (ret != ABT_SUCCESS)
                VIOL("self_yield_to returned %d", ret);
            else
                atomic_fetch_add(&stat_yield_to_pop, 1);
        }
    } else if (op < 34) { /* suspend */
        if (c->rec && !fin)
            suspend_self(c, 0, ABT_THREAD_NULL, NULL);
    } else if (op < 38) { /* resume another one and hand over */
        rec_t *r = claim_suspended(c);
        if (r) {
            int how = rnd(&c->rng, 3);
            if (how == 0 || !c->rec) {
                int ret = ABT_self_resume_yield_to(r->h);
                if (ret == ABT_ERR_THREAD)
                    atomic_store(&r->wants_resume, 1);
                else if (ret != ABT_SUCCESS)
                    VIOL("resume_yield_to returned %d", ret);
                else
                    atomic_fetch_add(&stat_resume_to, 1);
                /* after a success r may have ended and been freed: r->h is
                 * not touched, only the model's flag */
            } else if (how == 1 && !fin) {
                suspend_self(c, 2, r->h, r);
            } else {
                note_end(c);
                int ret = ABT_self_resume_exit_to(r->h);
                if (ret == ABT_ERR_THREAD) {
                    atomic_store(&c->rec->finished, 0);
                    atomic_store(&r->wants_resume, 1);
                } else {
                    VIOL("resume_exit_to returned %d", ret);
                }
            }
        }
    } else if (op < 48) { /* create a child */
        if (!fin && atomic_load(&total_units) < MAX_UNITS) {
            int named = rnd(&c->rng, 3) != 0;
            int is_task = rnd(&c->rng, 4) == 0;
            int how = is_task ? rnd(&c->rng, 2) : rnd(&c->rng, 3); /* 0 pool, 1 on_xstream, 2 create_to */
            /* create_to switches away while we hold the child's record */
            int guarded = how == 2 && guard_enter(c);
            if (how == 2 && !guarded)
                how = 0;
            int es_choice = rnd(&c->rng, NES + 1);
            make_unit(&c->rng, named, is_task, how, random_pool(&c->rng), es_choice);
            if (guarded)
                guard_leave(c);
        }
    } else if (op < 58) { /* join a later record */
        rec_t *r = random_live(&c->rng);
        if (r && c->rec)
            atomic_store(&c->rec->held, (int)(r - recs) + 1);
        if (r) {
            if (r != c->rec && atomic_load(&r->seq) > c->myseq && guard_enter(c)) {
                int life = atomic_load(&r->life);
                int ret = ABT_thread_join(r->h);
                guard_leave(c);
                if (ret != ABT_SUCCESS)
                    VIOL("unit join returned %d", ret);
                else if (atomic_load(&r->life) == life && !atomic_load(&r->finished) &&
                         !atomic_load(&r->cancel_req))
                    VIOL("rec %d life %d: join in a unit returned before the end",
                         (int)(r - recs), life);
                else
                    atomic_store(&r->joined_life, life);
            }
            unpin(r);
        }
    } else if (op < 63) { /* cancel a record */
        rec_t *r = random_live(&c->rng);
        if (r && c->rec)
            atomic_store(&c->rec->held, (int)(r - recs) + 1);
        if (r) {
            if (r != c->rec) {
                try_cancel(r, r->is_task);
                atomic_fetch_add(&stat_cancel_ok, 1);
            }
            unpin(r);
        }
    } else if (op < 71) { /* migrate myself */
        ABT_thread self;
        OK(ABT_self_get_thread(&self));
        int how = rnd(&c->rng, 4);
        int ret;
        if (how == 0) {
            ret = ABT_thread_migrate_to_pool(self, random_pool(&c->rng));
        } else if (how == 3) {
            ret = ABT_thread_migrate(self);
        } else {
            es_t *e = &ess[rnd(&c->rng, NES)];
            if (!guard_enter(c))
                return;
            if (!es_pin(e)) {
                guard_leave(c);
                return;
            }
            ABT_xstream x = atomic_load(&e->h);
            if (how == 1) {
                ret = ABT_thread_migrate_to_xstream(self, x);
            } else {
                ABT_sched sc;
                ret = ABT_xstream_get_main_sched(x, &sc);
                if (ret == ABT_SUCCESS)
                    ret = ABT_thread_migrate_to_sched(self, sc);
            }
            es_unpin(e);
            guard_leave(c);
        }
        if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_TARGET && ret != ABT_ERR_MIGRATION_NA &&
            ret != ABT_ERR_INV_XSTREAM)
            VIOL("self migration (%d) returned %d", how, ret);
    } else if (op < 76) { /* migrate another */
        rec_t *r = random_live(&c->rng);
        if (r && c->rec)
            atomic_store(&c->rec->held, (int)(r - recs) + 1);
        if (r && r == c->rec) { /* that would be a self migration (a yield) while pinned */
            unpin(r);
            r = NULL;
        }
        if (r) {
            int ret = ABT_thread_migrate_to_pool(r->h, random_pool(&c->rng));
            if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_TARGET &&
                ret != ABT_ERR_MIGRATION_NA && ret != ABT_ERR_INV_THREAD)
                VIOL("migrate other returned %d", ret);
            unpin(r);
        }
    } else if (op < 84) { /* exit at some depth */
        int how = rnd(&c->rng, 2);
        do_exit(c, rnd(&c->rng, 6), how);
    } else if (op < 86) { /* ABT_xstream_exit */
        if (fin)
            return;
        ABT_bool on_primary;
        OK(ABT_self_on_primary_xstream(&on_primary));
        if (on_primary)
            return;
        note_end(c);
        atomic_fetch_add(&stat_xexit, 1);
        int ret = ABT_xstream_exit();
        /* The primary ULT could not be here; a secondary ES: terminates us. */
        VIOL("xstream_exit returned %d", ret);
    } else if (op < 88) { /* ABT_xstream_cancel of some ES */
        if (fin)
            return;
        es_t *e = &ess[rnd(&c->rng, NES)];
        if (es_pin(e)) {
            OK(ABT_xstream_cancel(atomic_load(&e->h)));
            es_unpin(e);
        }
    } else {
        /* nothing: burn a little time */
        for (volatile int i = 0; i < 200; i++)
            ;
    }
}

static void task_step(ctx_t *c)
{
    int op = rnd(&c->rng, 10);
    if (op < 3) {
        rec_t *r = random_live(&c->rng);
        if (r && c->rec)
            atomic_store(&c->rec->held, (int)(r - recs) + 1);
        if (r) {
            if (r != c->rec)
                try_cancel(r, 0);
            unpin(r);
        }
    } else if (op < 5 && !atomic_load(&final_phase) && atomic_load(&total_units) < MAX_UNITS) {
        int es_choice = rnd(&c->rng, NES + 1);
        ABT_pool pool = random_pool(&c->rng);
        int how = rnd(&c->rng, 2), is_task = rnd(&c->rng, 2);
        make_unit(&c->rng, rnd(&c->rng, 2), is_task, how, pool, es_choice);
    } else if (op < 6 && !atomic_load(&final_phase)) {
        es_t *e = &ess[rnd(&c->rng, NES)];
        if (es_pin(e)) {
            OK(ABT_xstream_cancel(atomic_load(&e->h)));
            es_unpin(e);
        }
    }
}

static void run_body(ctx_t *c)
{
    note_start(c);
    note_alive(c);
    int steps = rnd(&c->rng, 8);
    for (int i = 0; i < steps; i++) {
        note_alive(c);
        if (c->is_task)
            task_step(c);
        else
            ult_step(c);
    }
    note_end(c);
}

static void body(void *arg)
{
    uintptr_t a = (uintptr_t)arg;
    ctx_t c;
    c.rec = &recs[a >> 16];
    c.life = (int)(a & 0xffff);
    c.myseq = atomic_load(&c.rec->seq);
    c.rng = c.rec->seed ^ (uint64_t)c.life * 7919;
    c.is_task = c.rec->is_task;
    run_body(&c);
}

static void unnamed_body(void *arg)
{
    ctx_t c;
    c.rec = NULL;
    c.life = 0;
    c.myseq = 1L << 60; /* joins nobody */
    c.rng = (uint64_t)(uintptr_t)arg;
    c.is_task = (int)((uintptr_t)arg & 1);
    run_body(&c);
}

static int make_unit(uint64_t *s, int named, int is_task, int how, ABT_pool pool, int esk)
{
    ABT_thread self;
    ABT_unit_type type;
    int caller_is_ult = ABT_self_get_type(&type) == ABT_SUCCESS && type == ABT_UNIT_TYPE_THREAD;
    if (how == 2 && (!caller_is_ult || is_task))
        how = 0;
    (void)self;
    ABT_xstream x = ABT_XSTREAM_NULL;
    es_t *e = NULL;
    if (how == 1) {
        if (esk == NES) {
            x = primary;
        } else {
            e = &ess[esk];
            if (!es_pin(e))
                return 0;
            x = atomic_load(&e->h);
        }
    }
    int ret;
    atomic_fetch_add(&total_units, 1);
    if (!named) {
        uint64_t seed = mix(s) & ~(uint64_t)1;
        seed |= (uint64_t)is_task;
        atomic_fetch_add(&unnamed_created, 1);
        void *arg = (void *)(uintptr_t)seed;
        if (is_task)
            ret = how == 1 ? ABT_task_create_on_xstream(x, unnamed_body, arg, NULL)
                           : ABT_task_create(pool, unnamed_body, arg, NULL);
        else if (how == 0)
            ret = ABT_thread_create(pool, unnamed_body, arg, ABT_THREAD_ATTR_NULL, NULL);
        else if (how == 1)
            ret = ABT_thread_create_on_xstream(x, unnamed_body, arg, ABT_THREAD_ATTR_NULL, NULL);
        else
            ret = ABT_thread_create_to(pool, unnamed_body, arg, ABT_THREAD_ATTR_NULL, NULL);
        if (ret != ABT_SUCCESS) {
            VIOL("create unnamed (task %d how %d) returned %d", is_task, how, ret);
            atomic_fetch_sub(&unnamed_created, 1);
        }
        if (e)
            es_unpin(e);
        return ret == ABT_SUCCESS;
    }
    rec_t *r = NULL;
    int start = rnd(s, NREC);
    for (int i = 0; i < NREC; i++) {
        rec_t *q = &recs[(start + i) % NREC];
        int f = R_FREE;
        if (atomic_compare_exchange_strong(&q->st, &f, R_ALLOC)) {
            r = q;
            break;
        }
    }
    if (!r) {
        if (e)
            es_unpin(e);
        return 0;
    }
    atomic_fetch_add(&creating, 1);
    int life = (atomic_load(&r->life) + 1) & 0xffff;
    atomic_store(&r->life, life);
    atomic_store(&r->started, 0);
    atomic_store(&r->finished, 0);
    atomic_store(&r->cancel_req, 0);
    atomic_store(&r->joined_life, -1);
    atomic_store(&r->wants_resume, 0);
    atomic_store(&r->cguard, 0);
    atomic_store(&r->seq, atomic_fetch_add(&seq_counter, 1));
    r->seed = mix(s);
    r->is_task = is_task;
    void *arg = (void *)(((uintptr_t)(r - recs) << 16) | (uintptr_t)life);
    ABT_thread h = ABT_THREAD_NULL;
    if (is_task)
        ret = how == 1 ? ABT_task_create_on_xstream(x, body, arg, &h)
                       : ABT_task_create(pool, body, arg, &h);
    else if (how == 0)
        ret = ABT_thread_create(pool, body, arg, ABT_THREAD_ATTR_NULL, &h);
    else if (how == 1)
        ret = ABT_thread_create_on_xstream(x, body, arg, ABT_THREAD_ATTR_NULL, &h);
    else
        ret = ABT_thread_create_to(pool, body, arg, ABT_THREAD_ATTR_NULL, &h);
    if (e)
        es_unpin(e);
    if (ret != ABT_SUCCESS) {
        VIOL("create named (task %d how %d) returned %d", is_task, how, ret);
        atomic_store(&r->st, R_FREE);
        atomic_fetch_sub(&creating, 1);
        return 0;
    }
    r->h = h;
    atomic_store(&r->st, R_LIVE);
    atomic_fetch_sub(&creating, 1);
    return 1;
}

/* ---- the driver's checks ---- */
static void check_joined(rec_t *r, const char *what)
{
    int life = atomic_load(&r->life);
    int started = atomic_load(&r->started);
    int finished = atomic_load(&r->finished);
    int cancel = atomic_load(&r->cancel_req);
    if (!cancel && (!finished || started != 1))
        VIOL("rec %d life %d after %s: started %d finished %d, not cancelled", (int)(r - recs),
             life, what, started, finished);
    if (started > 1)
        VIOL("rec %d life %d after %s: started %d times", (int)(r - recs), life, what, started);
    ABT_thread_state st;
    int ret = ABT_thread_get_state(r->h, &st);
    if (ret != ABT_SUCCESS || st != ABT_THREAD_STATE_TERMINATED)
        VIOL("rec %d after %s: get_state %d state %d", (int)(r - recs), what, ret, (int)st);
    atomic_store(&r->joined_life, life);
}

/* Takes a live record for the driver alone (free, revive). */
static int excl(rec_t *r)
{
    int l = R_LIVE;
    if (!atomic_compare_exchange_strong(&r->st, &l, R_EXCL))
        return 0;
    while (atomic_load(&r->pins) != 0)
        ABT_thread_yield();
    return 1;
}

static void wait_unpinned(rec_t *r)
{
    while (atomic_load(&r->pins) != 0)
        ABT_thread_yield();
}

static void driver_free(rec_t *r, int use_task_api)
{
    ABT_thread h = r->h;
    static int alt;
    if (alt++ & 1) {
        OK(ABT_thread_join(h)); /* then no resume can be under way */
        wait_unpinned(r);
    } /* else a resume may still be returning when the free ends */
    int ret = use_task_api ? ABT_task_free(&h) : ABT_thread_free(&h);
    if (ret != ABT_SUCCESS) {
        VIOL("free rec %d returned %d", (int)(r - recs), ret);
        atomic_store(&r->st, R_LIVE);
        return;
    }
    if (h != ABT_THREAD_NULL)
        VIOL("free left the handle");
    /* the checks on a freed unit read only the model */
    int started = atomic_load(&r->started), finished = atomic_load(&r->finished);
    if (!atomic_load(&r->cancel_req) && (!finished || started != 1))
        VIOL("rec %d after free: started %d finished %d", (int)(r - recs), started, finished);
    atomic_store(&r->joined_life, atomic_load(&r->life));
    r->h = ABT_THREAD_NULL;
    atomic_store(&r->st, R_FREE);
}

static void driver_revive(uint64_t *s, rec_t *r)
{
    OK(ABT_thread_join(r->h));
    wait_unpinned(r);
    check_joined(r, "driver join before revive");
    int life = (atomic_load(&r->life) + 1) & 0xffff;
    atomic_store(&r->life, life);
    atomic_store(&r->started, 0);
    atomic_store(&r->finished, 0);
    atomic_store(&r->cancel_req, 0);
    atomic_store(&r->wants_resume, 0);
    atomic_store(&r->cguard, 0);
    atomic_store(&r->seq, atomic_fetch_add(&seq_counter, 1));
    r->seed = mix(s);
    void *arg = (void *)(((uintptr_t)(r - recs) << 16) | (uintptr_t)life);
    ABT_pool pool = random_pool(s);
    int how = rnd(s, 3);
    int ret;
    if (r->is_task)
        ret = how ? ABT_task_revive(pool, body, arg, &r->h) : ABT_thread_revive(pool, body, arg, &r->h);
    else if (how == 2)
        ret = ABT_thread_revive_to(pool, body, arg, &r->h);
    else
        ret = ABT_thread_revive(pool, body, arg, &r->h);
    if (ret != ABT_SUCCESS)
        VIOL("revive (task %d how %d) returned %d", r->is_task, how, ret);
    else
        atomic_fetch_add(&stat_revive, 1);
    atomic_store(&r->st, R_LIVE);
}

static void driver_op(uint64_t *s)
{
    int op = rnd(s, 100);
    if (op < 30) {
        if (atomic_load(&total_units) < MAX_UNITS) {
            int is_task = rnd(s, 4) == 0;
            int es_choice = rnd(s, NES + 1);
            ABT_pool pool = random_pool(s);
            int how = rnd(s, 3);
            make_unit(s, rnd(s, 4) != 0, is_task, how, pool, es_choice);
        }
    } else if (op < 42) { /* join */
        rec_t *r = random_live(s);
        if (r) {
            int ret = rnd(s, 2) && r->is_task ? ABT_task_join(r->h) : ABT_thread_join(r->h);
            if (ret != ABT_SUCCESS)
                VIOL("driver join returned %d", ret);
            else
                check_joined(r, "driver join");
            unpin(r);
        }
    } else if (op < 54) { /* free */
        rec_t *r = &recs[rnd(s, NREC)];
        if (excl(r))
            driver_free(r, r->is_task && rnd(s, 2));
    } else if (op < 60) { /* join_many / free_many */
        rec_t *rs[5];
        ABT_thread hs[5];
        int n = 0, is_free = rnd(s, 2);
        for (int i = 0; i < 5; i++) {
            rec_t *r = &recs[rnd(s, NREC)];
            int dup = 0;
            for (int j = 0; j < n; j++)
                dup |= rs[j] == r;
            if (dup)
                continue;
            if (is_free ? excl(r) : pin(r)) {
                rs[n] = r;
                hs[n++] = r->h;
            }
        }
        if (is_free && rnd(s, 2)) {
            OK(ABT_thread_join_many(n, hs)); /* then no resume can be under way */
            for (int i = 0; i < n; i++)
                wait_unpinned(rs[i]);
        }
        int ret = is_free ? ABT_thread_free_many(n, hs) : ABT_thread_join_many(n, hs);
        if (ret != ABT_SUCCESS)
            VIOL("%s_many returned %d", is_free ? "free" : "join", ret);
        for (int i = 0; i < n; i++) {
            if (is_free) {
                if (hs[i] != ABT_THREAD_NULL)
                    VIOL("free_many left a handle");
                int started = atomic_load(&rs[i]->started), finished = atomic_load(&rs[i]->finished);
                if (!atomic_load(&rs[i]->cancel_req) && (!finished || started != 1))
                    VIOL("rec %d after free_many: started %d finished %d", (int)(rs[i] - recs),
                         started, finished);
                atomic_store(&rs[i]->joined_life, atomic_load(&rs[i]->life));
                rs[i]->h = ABT_THREAD_NULL;
                atomic_store(&rs[i]->st, R_FREE);
            } else {
                check_joined(rs[i], "join_many");
                unpin(rs[i]);
            }
        }
    } else if (op < 70) { /* cancel */
        rec_t *r = random_live(s);
        if (r) {
            try_cancel(r, r->is_task && rnd(s, 2));
            unpin(r);
        }
    } else if (op < 80) { /* revive */
        rec_t *r = &recs[rnd(s, NREC)];
        if (excl(r))
            driver_revive(s, r);
    } else if (op < 88) { /* migrate */
        rec_t *r = random_live(s);
        if (r) {
            int how = rnd(s, 4), ret;
            if (how == 0) {
                ret = ABT_thread_migrate_to_pool(r->h, random_pool(s));
            } else if (how == 3) {
                ret = ABT_thread_migrate(r->h);
            } else {
                es_t *e = &ess[rnd(s, NES)];
                ret = ABT_SUCCESS;
                if (es_pin(e)) {
                    ABT_xstream x = atomic_load(&e->h);
                    if (how == 1) {
                        ret = ABT_thread_migrate_to_xstream(r->h, x);
                    } else {
                        ABT_sched sc;
                        ret = ABT_xstream_get_main_sched(x, &sc);
                        if (ret == ABT_SUCCESS)
                            ret = ABT_thread_migrate_to_sched(r->h, sc);
                    }
                    es_unpin(e);
                }
            }
            if (ret != ABT_SUCCESS && ret != ABT_ERR_MIGRATION_TARGET &&
                ret != ABT_ERR_MIGRATION_NA && ret != ABT_ERR_INV_THREAD &&
                ret != ABT_ERR_INV_XSTREAM)
                VIOL("driver migrate (%d) returned %d", how, ret);
            unpin(r);
        }
    } else {
        OK(ABT_thread_yield());
    }
}

/* ---- external threads ---- */
static void *resumer(void *arg)
{
    uint64_t s = (uint64_t)(uintptr_t)arg;
    while (!atomic_load(&stop_resumer)) {
        int did = 0;
        for (int i = 0; i < NREC; i++) {
            rec_t *r = &recs[i];
            if (atomic_load(&r->wants_resume) != 1 || !pin_resume(r))
                continue;
            int one = 1;
            if (atomic_compare_exchange_strong(&r->wants_resume, &one, 2)) {
                int ret = ABT_thread_resume(r->h);
                if (ret == ABT_SUCCESS) {
                    int two = 2; /* unless it has suspended again already */
                    atomic_compare_exchange_strong(&r->wants_resume, &two, 0);
                    did = 1;
                } else if (ret == ABT_ERR_THREAD) {
                    atomic_store(&r->wants_resume, 1);
                } else {
                    VIOL("resume returned %d", ret);
                    atomic_store(&r->wants_resume, 1);
                }
            }
            unpin(r);
        }
        if (rnd(&s, 8) == 0) {
            rec_t *r = random_live(&s);
            if (r) {
                try_cancel(r, 0);
                unpin(r);
            }
        }
        if (!did)
            usleep(rnd(&s, 200));
    }
    return NULL;
}

static ABT_xstream new_es(es_t *e)
{
    ABT_pool pools[2] = {e->pool, shared};
    ABT_sched_predef kinds[3] = {ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT, ABT_SCHED_PRIO};
    ABT_xstream x = ABT_XSTREAM_NULL;
    OK(ABT_xstream_create_basic(kinds[rnd(&e->rng, 3)], 2, pools, ABT_SCHED_CONFIG_NULL, &x));
    return x;
}

static int es_terminated(es_t *e)
{
    ABT_xstream_state st;
    OK(ABT_xstream_get_state(atomic_load(&e->h), &st));
    return st == ABT_XSTREAM_STATE_TERMINATED;
}

static void es_revive(es_t *e)
{
    atomic_store(&e->state, E_RUNNING);
    OK(ABT_xstream_revive(atomic_load(&e->h)));
    atomic_fetch_add(&stat_es_revive, 1);
}

static void es_join(es_t *e)
{
    OK(ABT_xstream_join(atomic_load(&e->h)));
    atomic_store(&e->state, E_JOINED);
}

static void es_free_and_recreate(es_t *e)
{
    atomic_store(&e->freeing, 1);
    while (atomic_load(&e->pins) != 0) {
        if (atomic_load(&e->state) == E_JOINED || es_terminated(e)) {
            /* a unit migrating itself there holds a pin: let it arrive */
            es_revive(e);
        }
        usleep(50);
    }
    if (rnd(&e->rng, 2) && !es_terminated(e))
        es_join(e); /* then free a joined ES; else free joins it itself */
    ABT_xstream x = atomic_load(&e->h);
    OK(ABT_xstream_free(&x));
    if (x != ABT_XSTREAM_NULL)
        VIOL("xstream_free left the handle");
    atomic_store(&e->h, ABT_XSTREAM_NULL);
    atomic_store(&e->state, E_CHANGING);
    atomic_store(&e->freeing, 0);
    usleep(rnd(&e->rng, 300));
    ABT_xstream nx = new_es(e);
    atomic_store(&e->state, E_RUNNING);
    atomic_store(&e->h, nx);
    atomic_fetch_add(&stat_es_free, 1);
}

static void *manager(void *arg)
{
    es_t *e = arg;
    while (!atomic_load(&stop_mgrs)) {
        usleep(rnd(&e->rng, 1500));
        if (es_terminated(e)) {
            if (rnd(&e->rng, 2)) { /* join it (at once), then the check holds */
                es_join(e);
                usleep(rnd(&e->rng, 300));
            }
            if (rnd(&e->rng, 4) == 0 && !atomic_load(&final_phase))
                es_free_and_recreate(e);
            else
                es_revive(e);
            continue;
        }
        if (atomic_load(&final_phase))
            continue;
        int op = rnd(&e->rng, 10);
        if (op < 2) {
            OK(ABT_xstream_cancel(atomic_load(&e->h)));
        } else if (op < 4) {
            es_join(e);
            usleep(rnd(&e->rng, 500));
            es_revive(e);
        } else if (op < 6) {
            OK(ABT_xstream_cancel(atomic_load(&e->h)));
            es_join(e);
            usleep(rnd(&e->rng, 500));
            es_revive(e);
        } else if (op < 7) {
            es_free_and_recreate(e);
        }
    }
    if (es_terminated(e))
        es_revive(e);
    return NULL;
}

/* ---- one seed ---- */
static void watchdog(int sig)
{
    (void)sig;
    char buf[256];
    int n = snprintf(buf, sizeof buf,
                     "HANG seed=%lu (watchdog) units=%d unnamed %d/%d/%d final=%d\n", cur_seed,
                     atomic_load(&total_units), atomic_load(&unnamed_created),
                     atomic_load(&unnamed_started), atomic_load(&unnamed_finished),
                     atomic_load(&final_phase));
    if (write(2, buf, n) < 0) {
    }
    if (getenv("FUZZ_HANG_PAUSE")) /* leave it for a debugger */
        for (;;)
            pause();
    _exit(124);
}

static int all_free(void)
{
    for (int i = 0; i < NREC; i++)
        if (atomic_load(&recs[i].st) != R_FREE)
            return 0;
    return 1;
}

static void run_seed(unsigned long seed, int ops)
{
    cur_seed = seed;
    uint64_t s = seed * 0x2545F4914F6CDD1Dull + 1;
    memset(recs, 0, sizeof recs);
    memset(ess, 0, sizeof ess);
    atomic_store(&final_phase, 0);
    atomic_store(&stop_resumer, 0);
    atomic_store(&stop_mgrs, 0);
    atomic_store(&total_units, 0);
    atomic_store(&unnamed_created, 0);
    atomic_store(&unnamed_started, 0);
    atomic_store(&unnamed_finished, 0);
    atomic_store(&creating, 0);

    OK(ABT_init(0, NULL));
    OK(ABT_xstream_self(&primary));
    OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool0));
    OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
    ABT_pool ppools[2] = {pool0, shared};
    OK(ABT_xstream_set_main_sched_basic(primary, ABT_SCHED_BASIC, 2, ppools));
    for (int k = 0; k < NES; k++) {
        es_t *e = &ess[k];
        e->rng = mix(&s);
        OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &e->pool));
        atomic_store(&e->h, new_es(e));
        atomic_store(&e->state, E_RUNNING);
    }
    pthread_t res;
    pthread_create(&res, NULL, resumer, (void *)(uintptr_t)mix(&s));
    for (int k = 0; k < NES; k++)
        pthread_create(&ess[k].mgr, NULL, manager, &ess[k]);

    for (int i = 0; i < ops; i++)
        driver_op(&s);

    /* final phase: free everything */
    atomic_store(&final_phase, 1);
    for (int round = 0;; round++) {
        for (int i = 0; i < NREC; i++) {
            rec_t *r = &recs[i];
            if (excl(r)) {
                if (rnd(&s, 3) == 0) {
                    OK(ABT_thread_join(r->h));
                    check_joined(r, "final join");
                }
                driver_free(r, 0);
            }
        }
        if (all_free() && atomic_load(&creating) == 0 &&
            atomic_load(&unnamed_finished) == atomic_load(&unnamed_created) && all_free())
            break;
        ABT_thread_yield();
    }
    atomic_store(&stop_resumer, 1);
    pthread_join(res, NULL);
    atomic_store(&stop_mgrs, 1);
    for (int k = 0; k < NES; k++)
        pthread_join(ess[k].mgr, NULL);
    for (int k = 0; k < NES; k++) {
        ABT_xstream x = atomic_load(&ess[k].h);
        OK(ABT_xstream_free(&x));
        OK(ABT_pool_free(&ess[k].pool));
    }
    OK(ABT_finalize());
    if (atomic_load(&unnamed_started) != atomic_load(&unnamed_created))
        VIOL("unnamed: %d created, %d started", atomic_load(&unnamed_created),
             atomic_load(&unnamed_started));
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    int nseeds = argc > 2 ? atoi(argv[2]) : 1;
    int ops = argc > 3 ? atoi(argv[3]) : 300;
    int tmo = getenv("FUZZ_TIMEOUT") ? atoi(getenv("FUZZ_TIMEOUT")) : 30;
    int verbose = getenv("FUZZ_VERBOSE") != NULL;
    signal(SIGALRM, watchdog);
    for (int i = 0; i < nseeds; i++) {
        alarm(tmo);
        run_seed(seed + i, ops);
        alarm(0);
        if (verbose)
            fprintf(stderr,
                    "seed %lu: units %d exits %d xexits %d cancels %d revives %d resume_to %d "
                    "pop-handovers %d es_free %d es_revive %d own-ES-terminated %d\n",
                    seed + i, atomic_load(&total_units), atomic_load(&stat_exit),
                    atomic_load(&stat_xexit), atomic_load(&stat_cancel_ok),
                    atomic_load(&stat_revive), atomic_load(&stat_resume_to),
                    atomic_load(&stat_yield_to_pop), atomic_load(&stat_es_free),
                    atomic_load(&stat_es_revive), atomic_load(&saw_own_es_terminated));
        if (atomic_load(&violations)) {
            fprintf(stderr, "FAILED seed=%lu\n", seed + i);
            return 1;
        }
    }
    return 0;
}
