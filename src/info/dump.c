/*
 * ABT_info_trigger_print_all_thread_stacks: dump the stacks of every ULT
 * waiting in a pool of any ES, on request from anywhere, a signal handler
 * included.
 *
 * The trigger only arms a request (atomics on static data: signal-safe)
 * and rings the schedulers that sleep (bb_bells_ring_armed, signal-safe
 * too). The work happens in the schedulers, at their next event check: the
 * first main scheduler to see the request leads. It wakes the ESs that sleep,
 * waits until every ES has stopped in its own event check (or until the
 * timeout), prints, calls the user's callback, and lets them go. Stopping
 * the ESs keeps the pools still while they are printed; after a timeout the
 * ESs that did not stop keep running, and the dump reads their shared pools
 * anyway (the pools' walks take their locks), but not the private pools
 * they pop, which take no lock (bb_xstream.in_dump tells which stopped).
 *
 * States: IDLE -> ARMING (the trigger fills the request) -> PENDING -> DUMPING
 * (a leader took it) -> DONE (printed: the followers go) -> IDLE (they have
 * all gone; a new request may come).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bb_info.h"
#include "bb_pool.h"
#include "bb_print.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_time.h"

enum { IDLE, ARMING, PENDING, DUMPING, DONE };

static struct {
    uint32_t state;     /* atomic */
    uint32_t stopped;   /* followers waiting in their event check; atomic */
    FILE *fp;
    double timeout;     /* seconds; negative: wait for every ES */
    void (*cb)(ABT_bool, void *);
    void *arg;
} request;

int ABT_info_trigger_print_all_thread_stacks(FILE *fp, double timeout,
                                             void (*cb_func)(ABT_bool, void *), void *arg)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED; /* an atomic load: fine in a signal handler */
    if (!fp)
        return ABT_ERR_INV_ARG;
    uint32_t idle = IDLE;
    if (!__atomic_compare_exchange_n(&request.state, &idle, (uint32_t)ARMING, false,
                                     __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return ABT_SUCCESS; /* one is under way already: it will print */
    request.fp = fp;
    request.timeout = timeout;
    request.cb = cb_func;
    request.arg = arg;
    /* Sequentially consistent, as the sleeper's look (bb_info_dump_requested):
     * a scheduler arms its bell, then looks for a request; this stores the
     * request, then looks for armed bells. With weaker orders both may miss
     * the other's store (even on x86), and the ES sleeps with the dump
     * pending. */
    __atomic_store_n(&request.state, (uint32_t)PENDING, __ATOMIC_SEQ_CST);
    bb_bells_ring_armed(); /* every ES may sleep: one of them must lead */
    return ABT_SUCCESS;
}

/* ---- the leader ----------------------------------------------------------------- */

static void print_time(FILE *fp, const char *what)
{
    time_t now = time(NULL);
    struct tm tm;
    char text[64];
    if (!localtime_r(&now, &tm) || !strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S", &tm))
        snprintf(text, sizeof(text), "(time unknown)"); /* a failed strftime leaves text undefined */
    bb_fprintf(fp, "=== %s of the stack dump of all ULTs in pools: %s ===\n", what, text);
}

/* `scheds[r]`: the main scheduler of the ES of rank r, or NULL. */
static bool printed_before(bb_sched **scheds, int rank_upto, int pool_index, bb_pool *p)
{
    for (int r = 0; r <= rank_upto; r++) {
        bb_sched *s = scheds[r];
        int n = !s ? 0 : r == rank_upto ? pool_index : s->num_pools;
        for (int i = 0; i < n; i++)
            if (s->pools[i] == p)
                return true;
    }
    return false;
}

/* Whether the units of `p` stay where they are while it is printed: a
 * shared pool's walk takes its lock; a private pool is still only if the ES
 * that pops it stopped for the dump, or no longer runs. That ES may be
 * being freed by a thread that is no ES: it is read under the pool's lock,
 * under which it gives up its home first (bb_pool_check_access). */
static bool walkable(bb_pool *p)
{
    if (p->access != ABT_POOL_ACCESS_PRIV)
        return true;
    bb_spin_lock(&p->lock);
    bb_xstream *home = bb_load_acquire(&p->home);
    bool still = home && (bb_load_acquire(&home->in_dump) ||
                          bb_load_acquire(&home->state) == ABT_XSTREAM_STATE_TERMINATED);
    bb_spin_unlock(&p->lock);
    return still;
}

/* Each ES's main scheduler, pinned: after a dump that timed out, an ES that
 * did not stop may be replacing it, and a replaced scheduler is freed once
 * it has drained its pools. NULL without memory. */
static bb_sched **pin_main_scheds(void)
{
    bb_sched **scheds = calloc((size_t)bb_rt.xstreams_cap + 1, sizeof(*scheds));
    for (int r = 0; scheds && r < bb_rt.xstreams_cap; r++)
        if (bb_rt.xstreams[r])
            scheds[r] = bb_xstream_pin_main_sched(bb_rt.xstreams[r]);
    return scheds;
}

static void unpin_main_scheds(bb_sched **scheds)
{
    for (int r = 0; r < bb_rt.xstreams_cap; r++)
        if (scheds[r])
            bb_sched_unpin(scheds[r]);
    free(scheds);
}

static void print_dump(FILE *fp)
{
    print_time(fp, "start");
    bb_sched **scheds = pin_main_scheds();
    if (!scheds) {
        bb_fprintf(fp, "bobbin: stack dump: no memory\n");
        return;
    }
    for (int r = 0; r < bb_rt.xstreams_cap; r++) {
        bb_xstream *es = bb_rt.xstreams[r];
        if (!es)
            continue;
        bb_sched *s = scheds[r];
        bb_fprintf(fp, "xstream %d (%p): main sched %p\n", r, (void *)es, (void *)s);
        for (int i = 0; s && i < s->num_pools; i++)
            bb_fprintf(fp, "  pool %d: %p\n", i, (void *)s->pools[i]);
    }
    for (int r = 0; r < bb_rt.xstreams_cap; r++) {
        bb_sched *s = scheds[r];
        for (int i = 0; s && i < s->num_pools; i++) {
            bb_pool *p = s->pools[i];
            if (printed_before(scheds, r, i, p))
                continue; /* a pool shared by several ESs is printed once */
            if (!walkable(p)) {
                bb_fprintf(fp, "pool %p: private, its ES did not stop: not printed\n", (void *)p);
                continue;
            }
            int err = ABT_info_print_thread_stacks_in_pool(fp, bb_pool_handle(p));
            if (err != ABT_SUCCESS)
                bb_fprintf(fp, "pool %p: cannot print its units (error %d)\n", (void *)p, err);
        }
    }
    unpin_main_scheds(scheds);
    print_time(fp, "end");
    fflush(fp);
}

/* Every other ES's main scheduler: ring it, in case it sleeps. Under the
 * ES's scheduler lock (bb_xstream_ring_main_sched), not just the table's:
 * a ULT on that ES may be replacing its main scheduler meanwhile, and the
 * replaced one is freed once it has drained its pools. */
static void wake_all(bb_xstream *self)
{
    for (int r = 0; r < bb_rt.xstreams_cap; r++) {
        bb_xstream *es = bb_rt.xstreams[r];
        if (es && es != self)
            bb_xstream_ring_main_sched(es);
    }
}

/* The ESs that may still stop in an event check: not those that ended (a
 * joined ES stays in the table until it is freed). With the table locked. */
static uint32_t running_xstreams(void)
{
    uint32_t n = 0;
    for (int r = 0; r < bb_rt.xstreams_cap; r++) {
        bb_xstream *es = bb_rt.xstreams[r];
        if (es && bb_load_acquire(&es->state) != ABT_XSTREAM_STATE_TERMINATED)
            n++;
    }
    return n;
}

/* With the ES table locked; returns whether it gave up waiting. */
static bool wait_for_followers(void)
{
    double deadline = bb_wtime() + request.timeout;
    while (bb_load_acquire(&request.stopped) + 1 < running_xstreams()) {
        if (request.timeout >= 0 && bb_wtime() >= deadline)
            return true;
        pthread_mutex_unlock(&bb_rt.lock); /* ESs may be joining or leaving */
        sched_yield();
        pthread_mutex_lock(&bb_rt.lock);
    }
    return false;
}

static void lead(bb_xstream *self)
{
    FILE *fp = request.fp;
    bb_store_release(&self->in_dump, (uint8_t)1);
    pthread_mutex_lock(&bb_rt.lock);
    wake_all(self);
    bool forced = wait_for_followers();
    if (forced)
        bb_fprintf(fp, "bobbin: stack dump: only %u of %u execution streams stopped in %.3f s\n",
                   bb_load_relaxed(&request.stopped) + 1, running_xstreams(), request.timeout);
    print_dump(fp);
    pthread_mutex_unlock(&bb_rt.lock);
    if (request.cb)
        request.cb(forced ? ABT_TRUE : ABT_FALSE, request.arg);
    bb_store_release(&self->in_dump, (uint8_t)0);
    bb_store_release(&request.state, (uint32_t)DONE);
}

/* ---- every main scheduler, at its event check ---------------------------------------- */

void bb_info_dump_rendezvous(bb_sched *s)
{
    if (s->used != BB_SCHED_MAIN)
        return; /* one stop per ES: its main scheduler's */
    uint32_t pending = PENDING;
    if (__atomic_compare_exchange_n(&request.state, &pending, (uint32_t)DUMPING, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
        lead(bb_self_xstream());
        while (bb_load_acquire(&request.stopped))
            sched_yield(); /* followers are leaving */
        bb_store_release(&request.state, (uint32_t)IDLE);
        return;
    }
    if (pending != DUMPING)
        return;
    bb_xstream *self = bb_self_xstream();
    bb_store_release(&self->in_dump, (uint8_t)1);
    bb_fetch_add_acq_rel(&request.stopped, 1u);
    while (bb_load_acquire(&request.state) == DUMPING)
        sched_yield();
    bb_store_release(&self->in_dump, (uint8_t)0);
    bb_fetch_add_acq_rel(&request.stopped, (uint32_t)-1);
}

bool bb_info_dump_requested(void)
{
    uint32_t state = __atomic_load_n(&request.state, __ATOMIC_SEQ_CST); /* see the trigger */
    return state == PENDING || state == DUMPING;
}
