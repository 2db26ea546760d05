/*
 * fuzz_sync: a seeded, model-checked fuzzer of the synchronization objects.
 *
 * Build against a build directory of the library (with its sanitizer flag):
 *   fuzz/build.sh fuzz_sync build /tmp/fuzz_sync
 *   fuzz/build.sh fuzz_sync build-tsan /tmp/fuzz_sync_tsan -fsanitize=thread
 * Run:
 *   fuzz_sync SEED [NSEEDS [ROUNDS]]  seeds SEED .. SEED+NSEEDS-1, one
 *                                     ABT_init .. ABT_finalize each, ROUNDS
 *                                     rounds per seed (default 40)
 *   fuzz/run_fuzz.sh BIN FIRST_SEED SEEDS_PER_PROCESS PROCESSES [ROUNDS]
 * Environment: ABT_THREAD_TECHNIQUE and the ABT_OPT_* shortcuts as usual;
 * FZ_STALL (seconds without progress that count as a hang, default 20),
 * FUZZ_TIMEOUT (seconds per seed, default 120), FZ_GDB=1 (on a hang, also
 * dump every thread and ULT with gdb), FUZZ_VERBOSE (counts per seed).
 * Exit status 0 when every seed passed; 1 on a model violation (printed
 * with the seed); 124 on a stall or timeout, after a dump of every
 * participant and where it waits. A seed fixes the operations, not their
 * interleaving: rerun a failing seed a few times.
 *
 * Topology: the primary ES and 3 secondary ESs, each with a main scheduler
 * (BASIC, BASIC_WAIT or PRIO on secondaries) over its own pool (private or
 * MPMC, chosen per seed) and one MPMC pool shared by all.
 *
 * Each round, the driver (the primary ULT) starts one to three episodes at
 * once, or one ES-barrier episode alone, then waits for all their
 * participants: ULTs (in any pool; they yield and migrate themselves, also
 * into other ESs' private pools, before they wait), tasklets (where the API
 * lets them wait: mutex lock, cond timedwait; elsewhere they check the
 * error code or use the non-blocking calls) and external pthreads (the
 * driver waits for each on a static eventual it sets at its end).
 *
 * Episodes and what the model checks:
 *  - mutex: plain, recursive, from an attribute, static (both
 *    initializers); every locking call, nested locks for recursive ones,
 *    every unlocking call; a counter updated non-atomically under the lock
 *    ends exact, nobody is inside with another; the mutex is free after.
 *  - cond: producers and consumers with quotas (supply == demand) around a
 *    plain or recursive (nested while waiting) mutex, created or static
 *    cond; signal or broadcast, under the mutex or after unlocking; waits
 *    and timedwaits with deadlines of a fraction of a millisecond to a few
 *    ms (TIMEDOUT only once the deadline passed, the mutex held again on
 *    every return); tasklets timedwait and pass a wake-up on. A lost
 *    wake-up leaves a consumer waiting while items are left: a stall.
 *  - rwlock: readers (sometimes twice) and writers; a writer is alone,
 *    readers see no writer and a stable counter; the count ends exact.
 *  - barrier: N units over many rounds, reused across episodes with
 *    ABT_barrier_reinit; get_num_waiters; nobody leaves a round before all
 *    arrived.
 *  - future: 0..6 compartments, with or without a callback, set by ULTs,
 *    tasklets and external threads; the callback runs once per fill, in the
 *    last setter, with every value, before any waiter wakes or test says
 *    ready; reset and refill over rounds; a set too many fails.
 *  - eventual: created with a buffer or static; value copied intact to
 *    every waiter (wait, timedwait with short deadlines, test); a second
 *    set fails; reset and refill; blocked ULT waiters cancelled at random
 *    (their join still returns once the eventual is set).
 *  - xbarrier: an ABT_xstream_barrier between one ULT or tasklet on each ES
 *    whose own pool is not private, and the driver on the primary ES.
 *  - keys: values set by ULTs and tasklets (also overwritten, also by the
 *    driver with ABT_thread_set_specific); no destructor runs before the
 *    unit is freed (not on termination, not on revive), each final value's
 *    destructor runs exactly once at the free, even after ABT_key_free,
 *    overwritten values' never.
 *  - now and then, between rounds: a ULT blocked in a timed eventual or
 *    cond wait is woken and the object freed at once (the waiter frees it).
 * At the end the ESs are freed, the pools too, and ABT_finalize returns
 * (and, under ASan, nothing leaks).
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

#include "bb_test.h"
#include "fuzz_common.h"

#define NES 3     /* secondary ESs */
#define MAXP 12   /* participants per episode */
#define MAXEP 3   /* episodes per round */

static atomic_long progress;
static void tick(void) { atomic_fetch_add_explicit(&progress, 1, memory_order_relaxed); }

/* ---- topology ---- */
static ABT_xstream primary, xs[NES];
static ABT_pool pool0, shared, own[NES];
static int own_priv[NES + 1]; /* [0]: pool0, [k+1]: own[k] */

static ABT_pool random_pool(uint64_t *s)
{
    int k = rnd(s, NES + 2);
    return k == 0 ? pool0 : k == 1 ? shared : own[k - 2];
}

/* ---- episodes and participants ---- */
enum { EP_MUTEX, EP_COND, EP_RWLOCK, EP_BARRIER, EP_FUTURE, EP_EVENTUAL, EP_KEYS, EP_XBARRIER,
       NUM_EP };
static const char *ep_names[] = {"mutex",   "cond",     "rwlock", "barrier",
                                 "future",  "eventual", "keys",   "xbarrier"};
enum { K_ULT, K_TASK, K_EXT };
static const char *kind_names[] = {"ULT", "tasklet", "external"};

/* roles */
enum { R_NONE, R_CONSUMER, R_PRODUCER, R_PROBER, R_SETTER, R_WAITER, R_TESTER };

struct ep;
typedef struct part {
    struct ep *ep;
    int idx, kind, role;
    uint64_t rng;
    ABT_thread h;
    pthread_t th;
    ABT_eventual_memory done_mem; /* external: set at its end */
    ABT_eventual done;
    _Atomic(const char *) where;
    atomic_int finished;
    atomic_int cancelled;
    int quota, iters;
    /* keys */
    void *final_val[4];
    int revived;
} part_t;

#define NVALS 4096
typedef struct ep {
    int type, n, id;
    part_t p[MAXP];
    /* mutex / cond / rwlock */
    ABT_mutex mx;
    ABT_mutex_memory mx_mem;
    int mx_src, recursive, allow_spin, cs_yield, created_mx;
    ABT_cond cv;
    ABT_cond_memory cv_mem;
    int created_cv;
    long counter;      /* non-atomic, under the lock */
    atomic_int inside; /* holders now */
    atomic_int r_inside, w_inside;
    long expect;
    int items;                 /* cond: under mx */
    atomic_int consumed, produced;
    ABT_rwlock rw;
    /* barrier */
    ABT_barrier bar;
    int rounds;
    atomic_int arrived[64];
    /* future */
    ABT_future fut;
    int ncomp, with_cb, fround;
    atomic_int cb_count;
    /* eventual */
    ABT_eventual ev;
    ABT_eventual_memory ev_mem;
    int nbytes, is_static_ev;
    unsigned char payload[64];
    atomic_int set_done;
    /* xbarrier */
    ABT_xstream_barrier xbar;
    /* keys */
    ABT_key keys[4];
    int nkeys, key_has_dtor[4];
} ep_t;

static ep_t eps[MAXEP];
static int n_active;
static atomic_int dcount[NVALS]; /* key destructor calls per value */
static atomic_int next_val;
static ABT_barrier g_barrier; /* reused across barrier episodes: reinit */

static atomic_long st_ep[NUM_EP], st_timeouts, st_cancels, st_migrations, st_cb;

static __thread void *tls_setting; /* future: the value this thread is setting */

/* ---- time ---- */
static struct timespec deadline_in_ns(long ns)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += ns;
    while (t.tv_nsec >= 1000000000L) {
        t.tv_nsec -= 1000000000L;
        t.tv_sec++;
    }
    return t;
}
/* A timed wait that timed out: not before its deadline, and not absurdly
 * late either (the deadline was not ignored until some wake-up came). */
static int passed(const struct timespec *d)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    double late = (double)(now.tv_sec - d->tv_sec) + (now.tv_nsec - d->tv_nsec) * 1e-9;
    if (late > (bb_test_is_slow_run() ? 15.0 : 5.0))
        VIOL("a timed wait timed out %.3f s after its deadline", late);
    return late >= 0;
}

/* ---- helpers for participants ---- */
static void at(part_t *p, const char *w)
{
    atomic_store(&p->where, w);
    tick();
}

static void p_yield(part_t *p)
{
    if (p->kind == K_ULT)
        OK(rnd(&p->rng, 2) ? ABT_thread_yield() : ABT_self_yield());
    else if (p->kind == K_EXT)
        sched_yield();
}

/* A ULT moves itself somewhere else before it waits. */
static void p_maybe_migrate(part_t *p)
{
    if (p->kind != K_ULT || rnd(&p->rng, 4))
        return;
    ABT_thread self;
    OK(ABT_self_get_thread(&self));
    int r, how = rnd(&p->rng, 3);
    if (how == 0) {
        int k = rnd(&p->rng, NES + 1);
        r = ABT_thread_migrate_to_xstream(self, k == NES ? primary : xs[k]);
    } else if (how == 1) {
        r = ABT_thread_migrate_to_pool(self, random_pool(&p->rng));
    } else {
        r = ABT_thread_migrate(self);
    }
    if (r == ABT_SUCCESS)
        atomic_fetch_add(&st_migrations, 1);
    else if (r != ABT_ERR_MIGRATION_TARGET && r != ABT_ERR_MIGRATION_NA &&
             r != ABT_ERR_INV_XSTREAM)
        VIOL("migrate (%d) returned %d", how, r);
    OK(ABT_thread_yield()); /* the migration happens here */
}

static void maybe_yield(part_t *p)
{
    if (rnd(&p->rng, 3) == 0)
        p_yield(p);
}

/* ---- mutex ---- */
static int do_lock(part_t *p, ep_t *e)
{
    int m = rnd(&p->rng, 5);
    if (m == 3 && !(e->allow_spin || p->kind == K_EXT))
        m = 0;
    switch (m) {
    case 0:
        return ABT_mutex_lock(e->mx);
    case 1:
        return ABT_mutex_lock_low(e->mx);
    case 2:
        return ABT_mutex_lock_high(e->mx);
    case 3:
        return ABT_mutex_spinlock(e->mx);
    default:
        for (int i = 0; i < 20; i++) {
            int r = ABT_mutex_trylock(e->mx);
            if (r == ABT_SUCCESS)
                return r;
            if (r != ABT_ERR_MUTEX_LOCKED)
                VIOL("trylock returned %d", r);
            p_yield(p);
        }
        return ABT_mutex_lock(e->mx);
    }
}
static int do_unlock(part_t *p, ep_t *e)
{
    int m = rnd(&p->rng, 3);
    return m == 0 ? ABT_mutex_unlock(e->mx)
                  : m == 1 ? ABT_mutex_unlock_se(e->mx) : ABT_mutex_unlock_de(e->mx);
}
/* Holding the mutex now: nobody else may. */
static void enter_cs(ep_t *e)
{
    int was = atomic_fetch_add(&e->inside, 1);
    if (was != 0)
        VIOL("ep %d (%s): %d other holder(s) of the mutex", e->id, ep_names[e->type], was);
}
static void leave_cs(ep_t *e) { atomic_fetch_sub(&e->inside, 1); }

static void run_mutex(part_t *p, ep_t *e)
{
    for (int i = 0; i < p->iters; i++) {
        if (rnd(&p->rng, 4) == 0)
            p_maybe_migrate(p);
        at(p, "mutex lock");
        OK(do_lock(p, e));
        enter_cs(e);
        int nest = e->recursive ? rnd(&p->rng, 3) : 0;
        for (int k = 0; k < nest; k++) {
            if (rnd(&p->rng, 2))
                EXPECT(ABT_mutex_trylock(e->mx), ABT_SUCCESS); /* the owner relocks */
            else
                OK(do_lock(p, e));
        }
        long v = e->counter;
        if (e->cs_yield && rnd(&p->rng, 3) == 0)
            p_yield(p);
        e->counter = v + 1;
        at(p, "mutex unlock");
        for (int k = 0; k < nest; k++)
            OK(do_unlock(p, e));
        leave_cs(e);
        OK(do_unlock(p, e));
        maybe_yield(p);
    }
}

/* ---- cond ---- */
static void cs_relock_check(ep_t *e) { enter_cs(e); }

static void run_consumer(part_t *p, ep_t *e)
{
    for (int i = 0; i < p->quota; i++) {
        if (rnd(&p->rng, 3) == 0)
            p_maybe_migrate(p);
        at(p, "cond consumer lock");
        OK(do_lock(p, e));
        int nest = e->recursive ? rnd(&p->rng, 2) : 0;
        for (int k = 0; k < nest; k++)
            OK(ABT_mutex_lock(e->mx));
        enter_cs(e);
        while (e->items == 0) {
            leave_cs(e);
            if (rnd(&p->rng, 3) == 0) {
                struct timespec d = deadline_in_ns(100000 + rnd(&p->rng, 3000000));
                at(p, "cond timedwait");
                int r = ABT_cond_timedwait(e->cv, e->mx, &d);
                if (r == ABT_ERR_COND_TIMEDOUT) {
                    atomic_fetch_add(&st_timeouts, 1);
                    if (!passed(&d))
                        VIOL("cond timedwait timed out before its deadline");
                } else if (r != ABT_SUCCESS) {
                    VIOL("cond timedwait returned %d", r);
                }
            } else {
                at(p, "cond wait");
                OK(ABT_cond_wait(e->cv, e->mx));
            }
            cs_relock_check(e);
        }
        e->items--;
        atomic_fetch_add(&e->consumed, 1);
        leave_cs(e);
        at(p, "cond consumer unlock");
        for (int k = 0; k < nest; k++)
            OK(ABT_mutex_unlock(e->mx));
        OK(do_unlock(p, e));
        maybe_yield(p);
    }
}

static void run_producer(part_t *p, ep_t *e)
{
    for (int i = 0; i < p->quota; i++) {
        maybe_yield(p);
        at(p, "cond producer lock");
        OK(do_lock(p, e));
        enter_cs(e);
        e->items++;
        atomic_fetch_add(&e->produced, 1);
        int bcast = rnd(&p->rng, 4) == 0, inside = rnd(&p->rng, 2);
        if (inside)
            OK(bcast ? ABT_cond_broadcast(e->cv) : ABT_cond_signal(e->cv));
        leave_cs(e);
        OK(do_unlock(p, e));
        if (!inside)
            OK(bcast ? ABT_cond_broadcast(e->cv) : ABT_cond_signal(e->cv));
    }
}

/* A tasklet (or anybody) that waits a little without consuming: a wake-up it
 * gets while items are left is passed on. */
static void run_prober(part_t *p, ep_t *e)
{
    int tries = 1 + rnd(&p->rng, 2);
    at(p, "cond prober lock");
    OK(ABT_mutex_lock(e->mx));
    if (p->kind == K_TASK)
        EXPECT(ABT_cond_wait(e->cv, e->mx), ABT_ERR_COND);
    enter_cs(e);
    for (int t = 0; t < tries && e->items == 0; t++) {
        leave_cs(e);
        struct timespec d = deadline_in_ns(50000 + rnd(&p->rng, 1000000));
        at(p, "cond prober timedwait");
        int r = ABT_cond_timedwait(e->cv, e->mx, &d);
        if (r == ABT_ERR_COND_TIMEDOUT) {
            atomic_fetch_add(&st_timeouts, 1);
            if (!passed(&d))
                VIOL("cond timedwait (%s) timed out before its deadline", kind_names[p->kind]);
        } else if (r != ABT_SUCCESS) {
            VIOL("cond timedwait (%s) returned %d", kind_names[p->kind], r);
        }
        cs_relock_check(e);
    }
    if (e->items > 0)
        OK(ABT_cond_signal(e->cv));
    leave_cs(e);
    OK(ABT_mutex_unlock(e->mx));
}

/* ---- rwlock ---- */
static void run_rwlock(part_t *p, ep_t *e)
{
    if (p->kind == K_TASK) {
        EXPECT(ABT_rwlock_rdlock(e->rw), ABT_ERR_RWLOCK);
        EXPECT(ABT_rwlock_wrlock(e->rw), ABT_ERR_RWLOCK);
        return;
    }
    int wbias = 1 + rnd(&p->rng, 3);
    for (int i = 0; i < p->iters; i++) {
        if (rnd(&p->rng, 4) == 0)
            p_maybe_migrate(p);
        if (rnd(&p->rng, 4) < wbias) {
            at(p, "wrlock");
            OK(ABT_rwlock_wrlock(e->rw));
            if (atomic_fetch_add(&e->w_inside, 1) != 0 || atomic_load(&e->r_inside) != 0)
                VIOL("writer not alone: writers %d readers %d", atomic_load(&e->w_inside),
                     atomic_load(&e->r_inside));
            long v = e->counter;
            if (rnd(&p->rng, 3) == 0)
                p_yield(p);
            e->counter = v + 1;
            atomic_fetch_sub(&e->w_inside, 1);
            atomic_fetch_add(&e->produced, 1);
            at(p, "wrlock unlock");
            OK(ABT_rwlock_unlock(e->rw));
        } else {
            int twice = rnd(&p->rng, 4) == 0;
            at(p, "rdlock");
            OK(ABT_rwlock_rdlock(e->rw));
            if (twice)
                OK(ABT_rwlock_rdlock(e->rw));
            atomic_fetch_add(&e->r_inside, 1);
            if (atomic_load(&e->w_inside) != 0)
                VIOL("reader beside a writer");
            long v = __atomic_load_n(&e->counter, __ATOMIC_RELAXED);
            if (rnd(&p->rng, 3) == 0)
                p_yield(p);
            if (__atomic_load_n(&e->counter, __ATOMIC_RELAXED) != v)
                VIOL("counter changed under a read lock");
            atomic_fetch_sub(&e->r_inside, 1);
            at(p, "rdlock unlock");
            OK(ABT_rwlock_unlock(e->rw));
            if (twice)
                OK(ABT_rwlock_unlock(e->rw));
        }
        maybe_yield(p);
    }
}

/* ---- barrier ---- */
static void run_barrier(part_t *p, ep_t *e)
{
    if (p->kind == K_TASK) {
        EXPECT(ABT_barrier_wait(e->bar), ABT_ERR_BARRIER);
        return;
    }
    for (int r = 0; r < e->rounds; r++) {
        if (rnd(&p->rng, 3) == 0)
            p_maybe_migrate(p);
        maybe_yield(p);
        atomic_fetch_add(&e->arrived[r], 1);
        at(p, "barrier wait");
        OK(ABT_barrier_wait(e->bar));
        int a = atomic_load(&e->arrived[r]);
        if (a != e->expect)
            VIOL("barrier round %d: left with %d of %ld arrived", r, a, e->expect);
    }
}

/* ---- xbarrier ---- */
static void run_xbarrier(part_t *p, ep_t *e)
{
    for (int r = 0; r < e->rounds; r++) {
        atomic_fetch_add(&e->arrived[r], 1);
        if (p)
            at(p, "xstream barrier wait");
        OK(ABT_xstream_barrier_wait(e->xbar));
        int a = atomic_load(&e->arrived[r]);
        if (a != e->expect)
            VIOL("xstream barrier round %d: left with %d of %ld arrived", r, a, e->expect);
    }
}

/* ---- future ---- */
static ep_t *cb_ep; /* one future episode at a time has a callback */
static void future_cb(void **values)
{
    ep_t *e = cb_ep;
    atomic_fetch_add(&st_cb, 1);
    int c = atomic_fetch_add(&e->cb_count, 1);
    if (c != e->fround)
        VIOL("future callback ran %d times in round %d", c + 1, e->fround);
    if (e->ncomp > 0 && values[e->ncomp - 1] != tls_setting)
        VIOL("future callback not run by the last setter: last value %p, caller sets %p",
             values[e->ncomp - 1], tls_setting);
    unsigned long seen = 0;
    for (int i = 0; i < e->ncomp; i++) {
        uintptr_t v = (uintptr_t)values[i];
        int idx = (int)(v & 0xff);
        if ((v >> 8) != (uintptr_t)(e->id * 1000 + e->fround + 1) || idx >= e->n ||
            (seen >> idx) & 1)
            VIOL("future callback: value %d is %p", i, values[i]);
        else
            seen |= 1ul << idx;
    }
}

static void *fval(ep_t *e, int idx)
{
    return (void *)(((uintptr_t)(e->id * 1000 + e->fround + 1) << 8) | (uintptr_t)idx);
}

static void check_future_ready(ep_t *e, const char *how)
{
    if (e->with_cb && e->ncomp > 0 && atomic_load(&e->cb_count) != e->fround + 1)
        VIOL("future ready (%s) before its callback returned", how);
}

static void run_future(part_t *p, ep_t *e)
{
    maybe_yield(p);
    if (p->role == R_SETTER) {
        tls_setting = fval(e, p->idx);
        at(p, "future set");
        OK(ABT_future_set(e->fut, tls_setting));
        tls_setting = NULL;
    } else if (p->role == R_WAITER) {
        p_maybe_migrate(p);
        at(p, "future wait");
        OK(ABT_future_wait(e->fut));
        check_future_ready(e, "wait");
        ABT_bool ready = ABT_FALSE;
        OK(ABT_future_test(e->fut, &ready));
        if (!ready)
            VIOL("future not ready after its wait");
    } else {
        if (p->kind == K_TASK)
            EXPECT(ABT_future_wait(e->fut), ABT_ERR_FUTURE);
        ABT_bool ready = ABT_FALSE;
        OK(ABT_future_test(e->fut, &ready));
        if (ready)
            check_future_ready(e, "test");
    }
}

/* ---- eventual ---- */
static void check_value(ep_t *e, void *v, const char *how)
{
    if (e->nbytes == 0)
        return;
    if (!v || memcmp(v, e->payload, (size_t)e->nbytes) != 0)
        VIOL("eventual value wrong after %s", how);
}

static void run_eventual(part_t *p, ep_t *e)
{
    maybe_yield(p);
    if (p->role == R_SETTER) {
        for (int k = rnd(&p->rng, 4); k > 0; k--)
            p_yield(p);
        at(p, "eventual set");
        OK(ABT_eventual_set(e->ev, e->nbytes ? e->payload : NULL, e->nbytes));
        atomic_store(&e->set_done, 1);
        EXPECT(ABT_eventual_set(e->ev, NULL, 0), ABT_ERR_EVENTUAL);
    } else if (p->role == R_WAITER) {
        p_maybe_migrate(p);
        void *v = NULL;
        if (rnd(&p->rng, 3) == 0) {
            for (;;) {
                struct timespec d = deadline_in_ns(50000 + rnd(&p->rng, 2000000));
                at(p, "eventual timedwait");
                int r = ABT_eventual_timedwait(e->ev, &v, &d);
                if (r == ABT_SUCCESS)
                    break;
                if (r != ABT_ERR_COND_TIMEDOUT) {
                    VIOL("eventual timedwait returned %d", r);
                    break;
                }
                atomic_fetch_add(&st_timeouts, 1);
                if (!passed(&d))
                    VIOL("eventual timedwait timed out before its deadline");
            }
        } else {
            at(p, "eventual wait");
            OK(ABT_eventual_wait(e->ev, &v));
        }
        check_value(e, v, "wait");
        ABT_bool ready = ABT_FALSE;
        void *v2 = NULL;
        OK(ABT_eventual_test(e->ev, &v2, &ready));
        if (!ready || v2 != v)
            VIOL("eventual test after wait: ready %d value %p vs %p", ready, v2, v);
    } else {
        if (p->kind == K_TASK)
            EXPECT(ABT_eventual_wait(e->ev, NULL), ABT_ERR_EVENTUAL);
        ABT_bool ready = ABT_FALSE;
        void *v = NULL;
        OK(ABT_eventual_test(e->ev, &v, &ready));
        if (ready)
            check_value(e, v, "test");
    }
}

/* ---- keys ---- */
static void dtor(void *v)
{
    uintptr_t i = (uintptr_t)v;
    if (i == 0 || i >= NVALS) {
        VIOL("destructor got %p", v);
        return;
    }
    atomic_fetch_add(&dcount[i], 1);
}
static void *new_val(void)
{
    int i = atomic_fetch_add(&next_val, 1) % (NVALS - 1) + 1;
    atomic_store(&dcount[i], 0);
    return (void *)(uintptr_t)i;
}

static void run_keys(part_t *p, ep_t *e)
{
    if (p->kind == K_EXT) {
        EXPECT(ABT_key_set(e->keys[0], (void *)1), ABT_ERR_INV_XSTREAM);
        return;
    }
    if (p->revived) {
        /* a revived unit keeps its values */
        for (int k = 0; k < e->nkeys; k++) {
            void *v = (void *)-1;
            OK(ABT_key_get(e->keys[k], &v));
            if (v != p->final_val[k])
                VIOL("revived unit: key %d reads %p, had %p", k, v, p->final_val[k]);
        }
    }
    int sets = 1 + rnd(&p->rng, 4);
    for (int s = 0; s < sets; s++) {
        int k = rnd(&p->rng, e->nkeys);
        void *v = rnd(&p->rng, 6) ? new_val() : NULL;
        OK(rnd(&p->rng, 2) ? ABT_key_set(e->keys[k], v) : ABT_self_set_specific(e->keys[k], v));
        p->final_val[k] = v;
        if (rnd(&p->rng, 3) == 0)
            p_maybe_migrate(p);
        maybe_yield(p);
        void *g = (void *)-1;
        OK(rnd(&p->rng, 2) ? ABT_key_get(e->keys[k], &g) : ABT_self_get_specific(e->keys[k], &g));
        if (g != v)
            VIOL("key %d reads %p after setting %p", k, g, v);
    }
}

/* ---- the body of every participant ---- */
static void part_run(part_t *p)
{
    ep_t *e = p->ep;
    at(p, "start");
    switch (e->type) {
    case EP_MUTEX:
        run_mutex(p, e);
        break;
    case EP_COND:
        if (p->role == R_CONSUMER)
            run_consumer(p, e);
        else if (p->role == R_PRODUCER)
            run_producer(p, e);
        else
            run_prober(p, e);
        break;
    case EP_RWLOCK:
        run_rwlock(p, e);
        break;
    case EP_BARRIER:
        run_barrier(p, e);
        break;
    case EP_FUTURE:
        run_future(p, e);
        break;
    case EP_EVENTUAL:
        run_eventual(p, e);
        break;
    case EP_KEYS:
        run_keys(p, e);
        break;
    case EP_XBARRIER:
        run_xbarrier(p, e);
        break;
    }
    at(p, "done");
    atomic_store(&p->finished, 1);
}

static void unit_body(void *arg) { part_run(arg); }

static void *ext_body(void *arg)
{
    part_t *p = arg;
    part_run(p);
    OK(ABT_eventual_set(p->done, NULL, 0));
    return NULL;
}

/* ---- the driver ---- */
static int pick_kind(uint64_t *s, int allow_task, int allow_ext)
{
    int r = rnd(s, 10);
    if (r < 2 && allow_task)
        return K_TASK;
    if (r < 4 && allow_ext)
        return K_EXT;
    return K_ULT;
}

static void start_part(uint64_t *s, part_t *p)
{
    p->h = ABT_THREAD_NULL;
    p->rng = mix(s);
    atomic_store(&p->finished, 0);
    atomic_store(&p->cancelled, 0);
    atomic_store(&p->where, "created");
    if (p->kind == K_EXT) {
        memcpy(&p->done_mem, &(ABT_eventual_memory)ABT_EVENTUAL_INITIALIZER, sizeof p->done_mem);
        p->done = ABT_EVENTUAL_MEMORY_GET_HANDLE(&p->done_mem);
        if (pthread_create(&p->th, NULL, ext_body, p) != 0)
            VIOL("pthread_create failed");
        return;
    }
    ABT_pool pool = random_pool(s);
    /* another ES's private pool takes no pushes from here: use the shared one */
    for (int k = 0; k < NES; k++)
        if (pool == own[k] && own_priv[k + 1])
            pool = shared;
    int r = p->kind == K_TASK ? ABT_task_create(pool, unit_body, p, &p->h)
                              : ABT_thread_create(pool, unit_body, p, ABT_THREAD_ATTR_NULL, &p->h);
    if (r != ABT_SUCCESS)
        VIOL("create (%s) returned %d", kind_names[p->kind], r);
}

static void finish_part(part_t *p)
{
    if (p->kind == K_EXT) {
        OK(ABT_eventual_wait(p->done, NULL));
        pthread_join(p->th, NULL);
        return;
    }
    if (p->h != ABT_THREAD_NULL)
        OK(ABT_thread_free(&p->h));
}

static void setup_ep(uint64_t *s, ep_t *e, int type, int id)
{
    memset(e, 0, sizeof *e);
    e->type = type;
    e->id = id;
    atomic_fetch_add(&st_ep[type], 1);
    switch (type) {
    case EP_MUTEX: {
        e->n = 2 + rnd(s, MAXP - 1);
        e->mx_src = rnd(s, 5);
        e->recursive = e->mx_src == 2 || e->mx_src == 4;
        if (e->mx_src <= 2) {
            ABT_mutex_attr a;
            if (e->mx_src == 0) {
                OK(ABT_mutex_create(&e->mx));
            } else {
                OK(ABT_mutex_attr_create(&a));
                OK(ABT_mutex_attr_set_recursive(a, e->recursive ? ABT_TRUE : ABT_FALSE));
                OK(ABT_mutex_create_with_attr(a, &e->mx));
                OK(ABT_mutex_attr_free(&a));
            }
            e->created_mx = 1;
        } else {
            ABT_mutex_memory init = ABT_MUTEX_INITIALIZER, rinit = ABT_RECURSIVE_MUTEX_INITIALIZER;
            e->mx_mem = e->recursive ? rinit : init;
            e->mx = ABT_MUTEX_MEMORY_GET_HANDLE(&e->mx_mem);
        }
        e->allow_spin = rnd(s, 3) == 0;
        int tasks = rnd(s, 2);
        e->cs_yield = !e->allow_spin && !tasks;
        for (int i = 0; i < e->n; i++) {
            e->p[i].kind = pick_kind(s, tasks, 1);
            e->p[i].iters = 1 + rnd(s, 30);
            e->expect += e->p[i].iters;
        }
        break;
    }
    case EP_COND: {
        int ms = rnd(s, 4);
        e->recursive = ms & 1;
        if (ms < 2) {
            if (e->recursive) {
                ABT_mutex_attr a;
                OK(ABT_mutex_attr_create(&a));
                OK(ABT_mutex_attr_set_recursive(a, ABT_TRUE));
                OK(ABT_mutex_create_with_attr(a, &e->mx));
                OK(ABT_mutex_attr_free(&a));
            } else {
                OK(ABT_mutex_create(&e->mx));
            }
            e->created_mx = 1;
        } else {
            ABT_mutex_memory init = ABT_MUTEX_INITIALIZER, rinit = ABT_RECURSIVE_MUTEX_INITIALIZER;
            e->mx_mem = e->recursive ? rinit : init;
            e->mx = ABT_MUTEX_MEMORY_GET_HANDLE(&e->mx_mem);
        }
        if (rnd(s, 2)) {
            OK(ABT_cond_create(&e->cv));
            e->created_cv = 1;
        } else {
            ABT_cond_memory init = ABT_COND_INITIALIZER;
            e->cv_mem = init;
            e->cv = ABT_COND_MEMORY_GET_HANDLE(&e->cv_mem);
        }
        int nc = 1 + rnd(s, 5), np = 1 + rnd(s, 3), npr = rnd(s, 3);
        e->n = nc + np + npr;
        int demand = 0;
        for (int i = 0; i < nc; i++) {
            e->p[i].role = R_CONSUMER;
            e->p[i].kind = pick_kind(s, 0, 1);
            e->p[i].quota = 1 + rnd(s, 10);
            demand += e->p[i].quota;
        }
        for (int i = nc; i < nc + np; i++) {
            e->p[i].role = R_PRODUCER;
            e->p[i].kind = pick_kind(s, 1, 1);
            e->p[i].quota = demand / np + (i - nc < demand % np);
        }
        for (int i = nc + np; i < e->n; i++) {
            e->p[i].role = R_PROBER;
            e->p[i].kind = rnd(s, 2) ? K_TASK : pick_kind(s, 1, 1);
        }
        e->expect = demand;
        break;
    }
    case EP_RWLOCK:
        OK(ABT_rwlock_create(&e->rw));
        e->n = 2 + rnd(s, MAXP - 1);
        for (int i = 0; i < e->n; i++) {
            e->p[i].kind = pick_kind(s, 1, 1);
            e->p[i].iters = 1 + rnd(s, 20);
        }
        break;
    case EP_BARRIER: {
        e->n = 1 + rnd(s, 6);
        e->rounds = 1 + rnd(s, 30);
        if (g_barrier != ABT_BARRIER_NULL && rnd(s, 2)) {
            OK(ABT_barrier_reinit(g_barrier, (uint32_t)e->n));
            e->bar = g_barrier;
            g_barrier = ABT_BARRIER_NULL; /* ours until the episode ends */
        } else {
            OK(ABT_barrier_create((uint32_t)e->n, &e->bar));
        }
        uint32_t nw = 0;
        OK(ABT_barrier_get_num_waiters(e->bar, &nw));
        if (nw != (uint32_t)e->n)
            VIOL("barrier get_num_waiters %u, expected %d", nw, e->n);
        for (int i = 0; i < e->n; i++)
            e->p[i].kind = pick_kind(s, 0, 1);
        e->expect = e->n;
        if (rnd(s, 3) == 0)
            e->p[e->n++].kind = K_TASK; /* checks the error, does not count */
        break;
    }
    case EP_FUTURE: {
        e->ncomp = rnd(s, 7);
        e->with_cb = cb_ep == NULL && rnd(s, 3) != 0;
        if (e->with_cb)
            cb_ep = e;
        e->rounds = 1 + rnd(s, 3);
        OK(ABT_future_create((uint32_t)e->ncomp, e->with_cb ? future_cb : NULL, &e->fut));
        int nw = 1 + rnd(s, 4), nt = rnd(s, 3);
        e->n = e->ncomp + nw + nt;
        for (int i = 0; i < e->n; i++) {
            part_t *p = &e->p[i];
            p->role = i < e->ncomp ? R_SETTER : i < e->ncomp + nw ? R_WAITER : R_TESTER;
            p->kind = pick_kind(s, p->role != R_WAITER, 1);
        }
        break;
    }
    case EP_EVENTUAL: {
        e->is_static_ev = rnd(s, 3) == 0;
        if (e->is_static_ev) {
            ABT_eventual_memory init = ABT_EVENTUAL_INITIALIZER;
            e->ev_mem = init;
            e->ev = ABT_EVENTUAL_MEMORY_GET_HANDLE(&e->ev_mem);
            e->nbytes = 0;
        } else {
            int cap = rnd(s, 65);
            OK(ABT_eventual_create(cap, &e->ev));
            e->nbytes = cap ? rnd(s, cap + 1) : 0;
        }
        e->rounds = 1 + rnd(s, 3);
        int nw = 1 + rnd(s, 6), nt = rnd(s, 3);
        e->n = 1 + nw + nt;
        for (int i = 0; i < e->n; i++) {
            part_t *p = &e->p[i];
            p->role = i == 0 ? R_SETTER : i <= nw ? R_WAITER : R_TESTER;
            p->kind = pick_kind(s, p->role != R_WAITER, 1);
        }
        break;
    }
    case EP_KEYS: {
        e->nkeys = 1 + rnd(s, 4);
        for (int k = 0; k < e->nkeys; k++) {
            e->key_has_dtor[k] = rnd(s, 4) != 0;
            OK(ABT_key_create(e->key_has_dtor[k] ? dtor : NULL, &e->keys[k]));
        }
        e->n = 1 + rnd(s, 8);
        for (int i = 0; i < e->n; i++)
            e->p[i].kind = pick_kind(s, 1, rnd(s, 4) == 0);
        break;
    }
    case EP_XBARRIER: {
        /* one participant per ES whose own pool is not private (only that ES
         * pops it), plus the driver on the primary ES */
        int n = 0;
        for (int k = 0; k < NES; k++) {
            if (own_priv[k + 1])
                continue;
            e->p[n].kind = rnd(s, 3) == 0 ? K_TASK : K_ULT;
            e->p[n].quota = k;
            n++;
        }
        e->n = n;
        e->expect = n + 1; /* and the driver */
        e->rounds = 1 + rnd(s, 40);
        OK(ABT_xstream_barrier_create((uint32_t)n + 1, &e->xbar));
        break;
    }
    }
    for (int i = 0; i < e->n; i++) {
        e->p[i].ep = e;
        e->p[i].idx = i;
    }
}

static void start_xbarrier(uint64_t *s, ep_t *e)
{
    for (int i = 0; i < e->n; i++) {
        part_t *p = &e->p[i];
        p->rng = mix(s);
        atomic_store(&p->where, "created");
        ABT_pool pool = own[p->quota];
        int r = p->kind == K_TASK ? ABT_task_create(pool, unit_body, p, &p->h)
                                  : ABT_thread_create(pool, unit_body, p, ABT_THREAD_ATTR_NULL,
                                                      &p->h);
        if (r != ABT_SUCCESS)
            VIOL("xbarrier create returned %d", r);
    }
    run_xbarrier(NULL, e);
}

/* Runs the episodes of one round to their end and checks the results. */
static void end_ep(uint64_t *s, ep_t *e)
{
    switch (e->type) {
    case EP_MUTEX:
        if (e->counter != e->expect)
            VIOL("mutex ep %d: counter %ld, expected %ld (lost updates)", e->id, e->counter,
                 e->expect);
        EXPECT(ABT_mutex_trylock(e->mx), ABT_SUCCESS);
        OK(ABT_mutex_unlock(e->mx));
        if (!e->recursive)
            EXPECT(ABT_mutex_unlock(e->mx), ABT_ERR_MUTEX);
        if (e->created_mx)
            OK(ABT_mutex_free(&e->mx));
        break;
    case EP_COND:
        if (e->items != 0 || atomic_load(&e->consumed) != e->expect ||
            atomic_load(&e->produced) != e->expect)
            VIOL("cond ep %d: items %d consumed %d produced %d of %ld", e->id, e->items,
                 atomic_load(&e->consumed), atomic_load(&e->produced), e->expect);
        EXPECT(ABT_mutex_trylock(e->mx), ABT_SUCCESS);
        OK(ABT_mutex_unlock(e->mx));
        if (e->created_cv)
            OK(ABT_cond_free(&e->cv));
        if (e->created_mx)
            OK(ABT_mutex_free(&e->mx));
        break;
    case EP_RWLOCK:
        if (e->counter != atomic_load(&e->produced))
            VIOL("rwlock ep %d: counter %ld, %d writes", e->id, e->counter,
                 atomic_load(&e->produced));
        EXPECT(ABT_rwlock_unlock(e->rw), ABT_ERR_RWLOCK);
        OK(ABT_rwlock_free(&e->rw));
        break;
    case EP_BARRIER:
        if (g_barrier == ABT_BARRIER_NULL && rnd(s, 2))
            g_barrier = e->bar;
        else
            OK(ABT_barrier_free(&e->bar));
        break;
    case EP_FUTURE:
        if (e->with_cb) {
            cb_ep = NULL;
        }
        OK(ABT_future_free(&e->fut));
        break;
    case EP_EVENTUAL:
        if (!e->is_static_ev)
            OK(ABT_eventual_free(&e->ev));
        break;
    case EP_KEYS:
        for (int k = 0; k < e->nkeys; k++)
            if (e->keys[k] != ABT_KEY_NULL)
                OK(ABT_key_free(&e->keys[k]));
        break;
    case EP_XBARRIER:
        OK(ABT_xstream_barrier_free(&e->xbar));
        break;
    }
}

/* The driver moves ULT waiters that may be blocked now to another pool or ES
 * (also into another ES's private pool): they go there once woken. */
static atomic_long st_drv_migr;
static int is_done(part_t *p)
{
    ABT_thread_state st;
    return atomic_load(&p->finished) || atomic_load(&p->cancelled) ||
           (ABT_thread_get_state(p->h, &st) == ABT_SUCCESS && st == ABT_THREAD_STATE_TERMINATED);
}
static void migrate_waiters(uint64_t *s, ep_t *e)
{
    for (int i = 0; i < e->n; i++) {
        part_t *p = &e->p[i];
        if (p->kind != K_ULT || p->role != R_WAITER || rnd(s, 3))
            continue;
        if (rnd(s, 2))
            ABT_thread_yield(); /* let it reach its wait, or not */
        int how = rnd(s, 2), r;
        if (how == 0) {
            int k = rnd(s, NES + 1);
            r = ABT_thread_migrate_to_xstream(p->h, k == NES ? primary : xs[k]);
        } else {
            r = ABT_thread_migrate_to_pool(p->h, random_pool(s));
        }
        if (r == ABT_SUCCESS)
            atomic_fetch_add(&st_drv_migr, 1);
        else if (r != ABT_ERR_MIGRATION_TARGET && r != ABT_ERR_MIGRATION_NA &&
                 r != ABT_ERR_INV_XSTREAM && !(r == ABT_ERR_INV_THREAD && is_done(p)))
            VIOL("driver migrate (%d) of a waiter returned %d", how, r);
    }
}

/* The multi-round episodes (future, eventual) and keys run their own loops. */
static void run_future_rounds(uint64_t *s, ep_t *e)
{
    for (e->fround = 0; e->fround < e->rounds; e->fround++) {
        atomic_store(&e->cb_count, e->fround);
        if (e->fround > 0) {
            OK(ABT_future_reset(e->fut));
            ABT_bool ready = ABT_TRUE;
            OK(ABT_future_test(e->fut, &ready));
            if (ready != (e->ncomp == 0 ? ABT_TRUE : ABT_FALSE))
                VIOL("future after reset: ready %d with %d compartments", ready, e->ncomp);
        }
        for (int i = 0; i < e->n; i++)
            start_part(s, &e->p[i]);
        migrate_waiters(s, e);
        for (int i = 0; i < e->n; i++)
            finish_part(&e->p[i]);
        if (e->with_cb && e->ncomp > 0 && atomic_load(&e->cb_count) != e->fround + 1)
            VIOL("future round %d: callback ran %d times", e->fround,
                 atomic_load(&e->cb_count) - e->fround);
        ABT_bool ready = ABT_FALSE;
        OK(ABT_future_test(e->fut, &ready));
        if (!ready)
            VIOL("future not ready once every compartment was set");
        EXPECT(ABT_future_set(e->fut, NULL), ABT_ERR_FUTURE);
    }
}

static void run_eventual_rounds(uint64_t *s, ep_t *e)
{
    for (int r = 0; r < e->rounds; r++) {
        if (r > 0) {
            OK(ABT_eventual_reset(e->ev));
            ABT_bool ready = ABT_TRUE;
            OK(ABT_eventual_test(e->ev, NULL, &ready));
            if (ready)
                VIOL("eventual ready after reset");
        }
        atomic_store(&e->set_done, 0);
        for (int i = 0; i < e->nbytes; i++)
            e->payload[i] = (unsigned char)mix(s);
        for (int i = 0; i < e->n; i++)
            start_part(s, &e->p[i]);
        /* cancel a waiting ULT now and then */
        if (rnd(s, 3) == 0) {
            part_t *p = &e->p[1 + rnd(s, e->n - 1)];
            if (p->role == R_WAITER && p->kind == K_ULT) {
                for (int k = rnd(s, 4); k > 0; k--)
                    ABT_thread_yield();
                OK(ABT_thread_cancel(p->h));
                atomic_store(&p->cancelled, 1);
                atomic_fetch_add(&st_cancels, 1);
            }
        }
        migrate_waiters(s, e);
        for (int i = 0; i < e->n; i++)
            finish_part(&e->p[i]);
    }
}

static void run_keys_ep(uint64_t *s, ep_t *e)
{
    for (int i = 0; i < e->n; i++)
        start_part(s, &e->p[i]);
    for (int i = 0; i < e->n; i++) {
        part_t *p = &e->p[i];
        if (p->kind == K_EXT) {
            finish_part(p);
            continue;
        }
        OK(ABT_thread_join(p->h));
        if (rnd(s, 3) == 0) { /* the driver sets one too */
            int k = rnd(s, e->nkeys);
            void *v = new_val();
            OK(ABT_thread_set_specific(p->h, e->keys[k], v));
            p->final_val[k] = v;
        }
        for (int k = 0; k < e->nkeys; k++) {
            void *v = (void *)-1;
            OK(ABT_thread_get_specific(p->h, e->keys[k], &v));
            if (v != p->final_val[k])
                VIOL("keys: unit %d key %d reads %p, expected %p", i, k, v, p->final_val[k]);
            if (v && atomic_load(&dcount[(uintptr_t)v]) != 0)
                VIOL("keys: destructor ran before the free");
        }
        if (rnd(s, 4) == 0) { /* revive: values stay, no destructor */
            p->revived = 1;
            ABT_pool pool = shared;
            OK(ABT_thread_revive(pool, unit_body, p, &p->h));
            OK(ABT_thread_join(p->h));
            p->revived = 0;
            for (int k = 0; k < e->nkeys; k++) {
                void *v = p->final_val[k];
                if (v && atomic_load(&dcount[(uintptr_t)v]) != 0)
                    VIOL("keys: destructor ran before the free (after a revive)");
            }
        }
    }
    if (rnd(s, 2)) /* freed keys still destroy their values */
        for (int k = 0; k < e->nkeys; k++)
            if (rnd(s, 2))
                OK(ABT_key_free(&e->keys[k]));
    for (int i = 0; i < e->n; i++) {
        part_t *p = &e->p[i];
        if (p->kind == K_EXT)
            continue;
        OK(ABT_thread_free(&p->h));
        for (int k = 0; k < e->nkeys; k++) {
            void *v = p->final_val[k];
            if (!v)
                continue;
            int c = atomic_load(&dcount[(uintptr_t)v]);
            if (c != e->key_has_dtor[k])
                VIOL("keys: value of key %d destroyed %d times (destructor: %d)", k, c,
                     e->key_has_dtor[k]);
        }
    }
}

/* ---- freeing right after waking a timed waiter ----
 * A ULT blocks in a timed wait (long deadline); the driver wakes it and frees
 * the object at once, which the library allows: the waiter, still on its way
 * out, frees the memory when it leaves. */
static ABT_eventual qf_ev;
static ABT_cond qf_cv;
static ABT_mutex qf_mx;
static atomic_int qf_ret;
static void qf_body(void *arg)
{
    struct timespec d = deadline_in_ns(2000000000L);
    if (arg) {
        atomic_store(&qf_ret, ABT_eventual_timedwait(qf_ev, NULL, &d));
    } else {
        OK(ABT_mutex_lock(qf_mx));
        atomic_store(&qf_ret, ABT_cond_timedwait(qf_cv, qf_mx, &d));
        OK(ABT_mutex_unlock(qf_mx));
    }
    tick();
}
static void quick_free(uint64_t *s)
{
    int ev = rnd(s, 2);
    if (ev)
        OK(ABT_eventual_create(8, &qf_ev));
    else
        OK(ABT_cond_create(&qf_cv));
    OK(ABT_mutex_create(&qf_mx));
    atomic_store(&qf_ret, -1);
    ABT_thread t;
    ABT_pool pool = rnd(s, 2) ? shared : own_priv[0] ? shared : pool0;
    OK(ABT_thread_create(pool, qf_body, ev ? (void *)1 : NULL, ABT_THREAD_ATTR_NULL, &t));
    for (;;) { /* blocked: inside the timed wait */
        ABT_thread_state st;
        OK(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_BLOCKED)
            break;
        ABT_thread_yield();
    }
    if (ev) {
        OK(ABT_eventual_set(qf_ev, "abcdefg", 8));
        OK(ABT_eventual_free(&qf_ev));
    } else {
        OK(ABT_mutex_lock(qf_mx));
        OK(ABT_cond_signal(qf_cv));
        OK(ABT_cond_free(&qf_cv)); /* the waiter still needs the mutex: held */
        OK(ABT_mutex_unlock(qf_mx));
    }
    OK(ABT_thread_free(&t));
    if (atomic_load(&qf_ret) != ABT_SUCCESS)
        VIOL("quick free (%s): the timed wait returned %d", ev ? "eventual" : "cond",
             atomic_load(&qf_ret));
    OK(ABT_mutex_free(&qf_mx));
}

/* ---- stall detection ---- */
static atomic_int mon_stop;
static double g_stall = 20.0;

static void dump_state(void)
{
    fprintf(stderr, "STALL seed=%lu: no progress for %g s; %d active episode(s)\n", cur_seed,
            g_stall, n_active);
    for (int i = 0; i < n_active; i++) {
        ep_t *e = &eps[i];
        fprintf(stderr, " ep %d %s n=%d", e->id, ep_names[e->type], e->n);
        if (e->type == EP_COND)
            fprintf(stderr, " items=%d consumed=%d produced=%d of %ld rec=%d", e->items,
                    atomic_load(&e->consumed), atomic_load(&e->produced), e->expect,
                    e->recursive);
        if (e->type == EP_MUTEX)
            fprintf(stderr, " counter=%ld of %ld src=%d spin=%d csyield=%d", e->counter,
                    e->expect, e->mx_src, e->allow_spin, e->cs_yield);
        fprintf(stderr, "\n");
        for (int j = 0; j < e->n && j < MAXP; j++) {
            part_t *p = &e->p[j];
            fprintf(stderr, "   p%d %s role=%d %s%s\n", j, kind_names[p->kind], p->role,
                    atomic_load(&p->finished) ? "finished" : atomic_load(&p->where),
                    atomic_load(&p->cancelled) ? " (cancelled)" : "");
        }
    }
    fprintf(stderr, " pools: pool0 priv=%d", own_priv[0]);
    for (int k = 0; k < NES; k++)
        fprintf(stderr, " own%d priv=%d", k, own_priv[k + 1]);
    fprintf(stderr, "\n");
    if (getenv("FZ_GDB"))
        bb_test_dump_threads();
}

static void *monitor(void *arg)
{
    (void)arg;
    long last = -1;
    double quiet = 0;
    while (!atomic_load(&mon_stop)) {
        usleep(100000);
        long now = atomic_load(&progress);
        if (now != last) {
            last = now;
            quiet = 0;
        } else if ((quiet += 0.1) > g_stall) {
            dump_state();
            _exit(124);
        }
    }
    return NULL;
}

static void watchdog(int sig)
{
    (void)sig;
    static const char msg[] = "HANG: the seed outlived FUZZ_TIMEOUT\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
    }
    dump_state();
    _exit(124);
}

/* ---- ES churn ----
 * An external manager thread joins a random secondary ES and revives it,
 * while episodes run (its units, blocked ones included, keep it running
 * until they are done; units pushed or migrated to it meanwhile wait for the
 * revive). Between rounds the driver also frees an ES and creates a new one
 * over the same pools (with the manager held off). */
static pthread_mutex_t mgr_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int mgr_stop;
static atomic_long st_es_join, st_es_recreate;
static ABT_sched_predef es_kind[NES];

static void *manager(void *arg)
{
    uint64_t s = (uint64_t)(uintptr_t)arg;
    while (!atomic_load(&mgr_stop)) {
        usleep(rnd(&s, 5000));
        pthread_mutex_lock(&mgr_lock);
        int k = rnd(&s, NES);
        OK(ABT_xstream_join(xs[k]));
        atomic_fetch_add(&st_es_join, 1);
        usleep(rnd(&s, 2000));
        OK(ABT_xstream_revive(xs[k]));
        pthread_mutex_unlock(&mgr_lock);
        tick();
    }
    return NULL;
}

static void create_es(int k)
{
    ABT_pool pools[2] = {own[k], shared};
    OK(ABT_xstream_create_basic(es_kind[k], 2, pools, ABT_SCHED_CONFIG_NULL, &xs[k]));
}

static void recreate_es(uint64_t *s)
{
    while (pthread_mutex_trylock(&mgr_lock) != 0)
        ABT_thread_yield();
    int k = rnd(s, NES);
    OK(ABT_xstream_free(&xs[k]));
    es_kind[k] = (ABT_sched_predef[]){ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT, ABT_SCHED_PRIO}[rnd(s, 3)];
    create_es(k);
    atomic_fetch_add(&st_es_recreate, 1);
    pthread_mutex_unlock(&mgr_lock);
}

/* ---- one seed ---- */
static void run_seed(unsigned long seed, int rounds)
{
    cur_seed = seed;
    uint64_t s = seed * 0x2545F4914F6CDD1Dull + 7;
    n_active = 0;
    g_barrier = ABT_BARRIER_NULL;
    cb_ep = NULL;
    OK(ABT_init(0, NULL));
    OK(ABT_xstream_self(&primary));
    own_priv[0] = rnd(&s, 2);
    OK(ABT_pool_create_basic(ABT_POOL_FIFO,
                             own_priv[0] ? ABT_POOL_ACCESS_PRIV : ABT_POOL_ACCESS_MPMC, ABT_TRUE,
                             &pool0));
    OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
    ABT_pool pp[2] = {pool0, shared};
    OK(ABT_xstream_set_main_sched_basic(primary, ABT_SCHED_BASIC, 2, pp));
    for (int k = 0; k < NES; k++) {
        own_priv[k + 1] = rnd(&s, 3) == 0;
        OK(ABT_pool_create_basic(ABT_POOL_FIFO,
                                 own_priv[k + 1] ? ABT_POOL_ACCESS_PRIV : ABT_POOL_ACCESS_MPMC,
                                 ABT_FALSE, &own[k]));
        ABT_sched_predef kinds[3] = {ABT_SCHED_BASIC, ABT_SCHED_BASIC_WAIT, ABT_SCHED_PRIO};
        es_kind[k] = kinds[rnd(&s, 3)];
        create_es(k);
    }
    int churn = rnd(&s, 2);
    pthread_t mgr;
    atomic_store(&mgr_stop, 0);
    if (churn)
        pthread_create(&mgr, NULL, manager, (void *)(uintptr_t)mix(&s));

    int id = 0;
    for (int round = 0; round < rounds; round++) {
        if (rnd(&s, 12) == 0) {
            n_active = 1;
            setup_ep(&s, &eps[0], EP_XBARRIER, id++);
            start_xbarrier(&s, &eps[0]);
            for (int i = 0; i < eps[0].n; i++)
                finish_part(&eps[0].p[i]);
            end_ep(&s, &eps[0]);
            n_active = 0;
            continue;
        }
        int ne = 1 + rnd(&s, MAXEP);
        n_active = 0;
        for (int i = 0; i < ne; i++)
            setup_ep(&s, &eps[i], rnd(&s, EP_XBARRIER), id++);
        n_active = ne;
        /* start the single-shot episodes; run the multi-round ones in turn */
        for (int i = 0; i < ne; i++) {
            ep_t *e = &eps[i];
            if (e->type <= EP_BARRIER)
                for (int j = 0; j < e->n; j++)
                    start_part(&s, &e->p[j]);
        }
        for (int i = 0; i < ne; i++) {
            ep_t *e = &eps[i];
            if (e->type == EP_FUTURE)
                run_future_rounds(&s, e);
            else if (e->type == EP_EVENTUAL)
                run_eventual_rounds(&s, e);
            else if (e->type == EP_KEYS)
                run_keys_ep(&s, e);
        }
        for (int i = 0; i < ne; i++) {
            ep_t *e = &eps[i];
            if (e->type <= EP_BARRIER)
                for (int j = 0; j < e->n; j++)
                    finish_part(&e->p[j]);
        }
        for (int i = 0; i < ne; i++)
            end_ep(&s, &eps[i]);
        n_active = 0;
        tick();
        if (churn && rnd(&s, 8) == 0)
            recreate_es(&s);
        if (rnd(&s, 6) == 0)
            quick_free(&s);
    }
    if (churn) {
        atomic_store(&mgr_stop, 1);
        pthread_join(mgr, NULL);
    }
    if (g_barrier != ABT_BARRIER_NULL)
        OK(ABT_barrier_free(&g_barrier));
    for (int k = 0; k < NES; k++) {
        if (rnd(&s, 2))
            OK(ABT_xstream_join(xs[k]));
        OK(ABT_xstream_free(&xs[k]));
    }
    for (int k = 0; k < NES; k++)
        OK(ABT_pool_free(&own[k]));
    OK(ABT_finalize());
}

int main(int argc, char **argv)
{
    unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    int nseeds = argc > 2 ? atoi(argv[2]) : 1;
    int rounds = argc > 3 ? atoi(argv[3]) : 40;
    int tmo = getenv("FUZZ_TIMEOUT") ? atoi(getenv("FUZZ_TIMEOUT")) : 120;
    if (getenv("FZ_STALL"))
        g_stall = atof(getenv("FZ_STALL"));
    if (bb_test_is_slow_run())
        g_stall *= 3;
    snprintf(bb_test_pid, sizeof bb_test_pid, "%ld", (long)getpid());
    signal(SIGALRM, watchdog);
    pthread_t mon;
    pthread_create(&mon, NULL, monitor, NULL);
    for (int i = 0; i < nseeds; i++) {
        alarm(tmo);
        run_seed(seed + i, rounds);
        alarm(0);
        if (getenv("FUZZ_VERBOSE")) {
            fprintf(stderr, "seed %lu:", seed + i);
            for (int t = 0; t < NUM_EP; t++)
                fprintf(stderr, " %s %ld", ep_names[t], atomic_load(&st_ep[t]));
            fprintf(stderr,
                    " timeouts %ld cancels %ld migrations %ld+%ld callbacks %ld es joins %ld "
                    "es re-creations %ld\n",
                    atomic_load(&st_timeouts), atomic_load(&st_cancels),
                    atomic_load(&st_migrations), atomic_load(&st_drv_migr), atomic_load(&st_cb),
                    atomic_load(&st_es_join), atomic_load(&st_es_recreate));
        }
        if (atomic_load(&violations)) {
            fprintf(stderr, "FAILED seed=%lu\n", seed + i);
            return 1;
        }
    }
    atomic_store(&mon_stop, 1);
    pthread_join(mon, NULL);
    return 0;
}
