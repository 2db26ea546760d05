/*
 * Execution streams: their life (create, run, join, revive, free) and the
 * public ABT_xstream_* API. CPU binding is in binding.c; the table of ranks
 * in table.c.
 *
 * Life of a secondary ES: ABT_xstream_create starts a pthread that runs the
 * main scheduler on its own stack until the scheduler stops (FINISH after
 * ABT_xstream_join / ABT_xstream_free, EXIT after ABT_xstream_exit or
 * ABT_xstream_cancel), then marks the ES TERMINATED and returns. Revive starts
 * a new pthread on the same ES object and scheduler.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_caller.h"
#include "bb_ctx.h"
#include "bb_overflow.h"
#include "bb_pool.h"
#include "bb_print.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_switch.h"
#include "bb_technique.h"
#include "bb_xstream.h"

__thread bb_xstream *bb_tls_xstream __attribute__((tls_model("initial-exec")));

/* The stand-in of bb_self_xstream_or_outside: its current unit has no flags,
 * so it is no ULT. */
static bb_unit outside_unit;
static bb_xstream outside = {.current = &outside_unit};
__thread bb_xstream *bb_tls_here __attribute__((tls_model("initial-exec"))) = &outside;

void bb_xstream_set_self(bb_xstream *es)
{
    bb_tls_xstream = es;
    bb_tls_here = es ? es : &outside;
}


/* ---- running --------------------------------------------------------------- */

static __attribute__((noinline)) void run_from_other_pool(bb_xstream *es, bb_unit *u,
                                                           bb_pool *pool)
{
    (void)bb_unit_set_pool(u, pool); /* a user pool failing keeps the old one */
    bb_unit_run(es, u);
}

/* bb_xstream_run_unit for the user's calls (ABT_self_schedule,
 * ABT_xstream_run_unit): `u` is associated with `pool` first, where a user
 * pool's failing create-unit callback can still be reported (as Argobots
 * does), and then does not run. */
int bb_xstream_run_unit_from_user(bb_xstream *es, bb_unit *u, bb_pool *pool)
{
    int err = bb_unit_set_pool(u, pool);
    if (err != ABT_SUCCESS)
        return err;
    bb_unit_run_for_user(es, u);
    return ABT_SUCCESS;
}

/* Run `u`, just taken from `pool`, which becomes its associated pool. The
 * rare re-association is a tail call away, keeping this a plain jump. */
void bb_xstream_run_unit(bb_xstream *es, bb_unit *u, bb_pool *pool)
{
    if (__builtin_expect(u->pool != pool, 0)) {
        run_from_other_pool(es, u, pool);
        return;
    }
    bb_unit_run(es, u);
}

/* ---- the main scheduler and other threads ---------------------------------- */

void bb_xstream_request_stop(bb_xstream *es, uint32_t bits)
{
    bb_spin_lock(&es->sched_lock);
    es->stop_bits |= bits;
    if (es->main_sched)
        bb_sched_request(es->main_sched, bits);
    bb_spin_unlock(&es->sched_lock);
}

/* A scheduler being replaced runs, and may sleep, until its pools are
 * drained: it is the one to wake then, not its successor, which has not
 * started yet. */
void bb_xstream_ring_main_sched(bb_xstream *es)
{
    bb_spin_lock(&es->sched_lock); /* neither is retired meanwhile */
    if (es->main_sched)
        bb_bell_ring(es->main_sched->bell);
    if (es->retiring)
        bb_bell_ring(es->retiring->bell);
    bb_spin_unlock(&es->sched_lock);
}

/* The primary ES stops only for ABT_finalize: other requests are dropped. */
static void drop_stop_requests(bb_xstream *es)
{
    bb_spin_lock(&es->sched_lock);
    es->stop_bits = 0;
    bb_store_relaxed(&es->main_sched->request, 0u);
    bb_spin_unlock(&es->sched_lock);
}

bb_sched *bb_xstream_pin_main_sched(bb_xstream *es)
{
    bb_spin_lock(&es->sched_lock);
    bb_sched *s = es->main_sched;
    if (s)
        bb_fetch_add_relaxed(&s->pins, 1u);
    bb_spin_unlock(&es->sched_lock);
    return s;
}

bb_pool *bb_xstream_pin_first_main_pool(bb_xstream *es, bb_sched **pinned)
{
    *pinned = bb_xstream_pin_main_sched(es);
    return *pinned ? bb_sched_first_pool(*pinned) : NULL;
}

/* `s`, claimed for `es` and attached, becomes its main scheduler, with the
 * stop requests `es` has had; `retiring` (or NULL) runs until its pools
 * are drained. */
static void install_main_sched(bb_xstream *es, bb_sched *s, bb_sched *retiring)
{
    bb_spin_lock(&es->sched_lock);
    bb_store_relaxed(&es->main_sched, s); /* is_primary_main (sched.c) reads it unlocked */
    es->retiring = retiring;
    if (es->stop_bits)
        bb_sched_request(s, es->stop_bits);
    bb_spin_unlock(&es->sched_lock);
}

/* No other thread can pin `s` any more (it is no ES's main scheduler):
 * wait for those that did. */
static void wait_unpinned(bb_sched *s)
{
    unsigned spins = 0;
    while (bb_load_acquire(&s->pins) != 0)
        bb_spin_wait_step(&spins);
}

/* What every main scheduler leaving its ES goes through (retire_sched,
 * drop_sched): no thread pins it any more, its private pools lose their
 * home (bb_sched_detach), and its requests are cleared. So is its `unit`:
 * the ES's scheduler unit runs the next main scheduler, and a call on the
 * retired one (ABT_xstream_check_events) must not pass for that one's. */
static void leave_es(bb_sched *s)
{
    wait_unpinned(s);
    bb_sched_detach(s);
    bb_store_relaxed(&s->request, 0u);
    bb_store_relaxed(&s->unit, NULL);
}

/* A main scheduler that leaves its ES: replaced, dropped while pending, or
 * with its ES freed. An automatic one is freed, unless it would take along
 * an automatic pool of its own that still has work (units left by an exit or
 * a cancel, or pushed while the ES was terminated): then it goes back to
 * the user with that work, as if not automatic, as a stacked one does
 * (stack.c), instead of losing the units. */
static void retire_sched(bb_sched *s)
{
    leave_es(s);
    bb_sched_free_or_give_back(s);
}

/* ABT_finalize frees an ES the user did not: an automatic main scheduler
 * goes even with work left in its pools (a cancelled ES, or units pushed
 * after it terminated). Kept, nobody could run that work or free it any
 * more (the user may not even hold its handle, ABT_xstream_create's default
 * one), and the units go with the runtime anyway. Reviving the ES to run
 * them instead would run work the user abandoned, and wait for ever for a
 * unit that waits for what will never come. */
static void drop_sched(bb_sched *s)
{
    leave_es(s);
    if (s->automatic)
        bb_sched_destroy(s);
    else
        bb_sched_unclaim(s);
}

static void call_run(void *arg)
{
    bb_sched *s = arg;
    s->run(bb_sched_handle(s));
}

/* One call of the loop of `s`, the main scheduler of `es`. A user-defined
 * one that replaced the predefined loop on a small stack runs on the big
 * one (bb_xstream_big_stack): it is not restartable, so its context is
 * saved there whenever it runs a ULT, and the call returns there. Without
 * memory for that stack, it runs where the predefined loop did. */
static void run_sched(bb_xstream *es, bb_sched *s)
{
    void *stack = NULL;
    if (!es->restartable && es->sched_stack_small)
        stack = bb_xstream_big_stack(es);
    if (stack)
        bb_ctx_run_on(stack, bb_rt.config.sched_stacksize, call_run, s);
    else
        s->run(bb_sched_handle(s));
}

/* Run the main scheduler until it stops for good. A scheduler replaced by
 * ABT_xstream_set_main_sched stops too; its successor then takes over.
 * Restartable: everything it needs to go on is in `es` and the bb_sched. */
static void run_main_scheds(bb_xstream *es)
{
    for (;;) {
        bb_sched *s = es->retiring ? es->retiring : es->main_sched;
        bb_store_relaxed(&s->unit, es->sched_unit);
        es->running_sched = s;
        es->restartable = bb_sched_is_stateless(s) ? es->sched_unit : NULL;
        run_sched(es, s);
        es->running_sched = &bb_no_sched;
        es->restartable = NULL;
        if (s != es->retiring)
            return; /* the main scheduler stopped for good */
        wait_unpinned(s);
        /* ABT_sched_exit on the retiring scheduler: it stops now, whatever
         * its pools hold, and its successor takes over at once. Calling
         * run() again instead would return at once each time, for ever if
         * the loop asks ABT_sched_has_to_stop before it runs anything. */
        bool exited = bb_load_acquire(&s->request) & BB_SCHED_REQ_EXIT;
        if (!exited && !bb_sched_pools_are_drained(s))
            continue; /* a thread that had pinned it pushed work: run that too */
        bb_spin_lock(&es->sched_lock); /* see bb_xstream_ring_main_sched */
        es->retiring = NULL;
        bb_spin_unlock(&es->sched_lock);
        retire_sched(s); /* with work left after an exit: back to the user */
        bb_unit *replacer = es->replacer;
        es->replacer = NULL;
        bb_unit_make_ready(replacer); /* parked: into the new scheduler's first pool */
    }
}

/* A ULT of `es` that joins `es` itself parks until `es` stops (see
 * leave_joined_xstream): now it goes back to its pool, for another ES. */
static void release_self_joiners(bb_xstream *es)
{
    bb_unit *joiner = es->self_joiners;
    es->self_joiners = NULL;
    while (joiner) {
        bb_unit *next = joiner->next; /* parked: in no list but this one */
        joiner->next = NULL;
        bb_unit_make_ready(joiner);
        joiner = next;
    }
}

/* The scheduler of a secondary ES, on a stack of its own (so that it can be
 * restarted, see run_main_scheds): back to the OS thread once it stops. */
static void secondary_sched_main(void *arg)
{
    (void)arg; /* the user's, NULL at first (see bb_unit_make_sched) */
    bb_xstream *es = bb_self_xstream();
    bb_unit *sched_unit = es->current; /* being started */
    bb_fpu_control_load(&es->sched_fpu);
    run_main_scheds(es);
    release_self_joiners(es);
    bb_xstream_close_inbox(es); /* nothing pops its pools any more */
    bb_store_relaxed(&es->current, es->native_unit);
    bb_switch_exit(sched_unit, es->native_unit, NULL, NULL);
}

/* An ES's OS thread that ends without returning from secondary_main ended
 * inside a work unit: a ULT called pthread_exit, or the thread was
 * cancelled. The ES's work and every join of it would wait for ever, with
 * no word: say what happened and stop instead. The key's value is the ES
 * while its thread runs units; its destructor runs only if it is still set
 * when the thread ends. The key lives from ABT_init to ABT_finalize, so
 * that a library loaded and unloaded again and again (dlopen) takes none
 * of the process's keys for good. */
static pthread_key_t thread_running_key;
static bool have_thread_running_key;

static void thread_ended_in_unit(void *es)
{
    bb_fprintf(stderr,
               "bobbin: the OS thread of ES %d ended inside a work unit (pthread_exit or "
               "pthread_cancel); the ES cannot go on, aborting\n",
               bb_load_relaxed(&((bb_xstream *)es)->rank));
    abort();
}

void bb_xstream_watch_threads(bool on)
{
    if (on) {
        have_thread_running_key =
            pthread_key_create(&thread_running_key, thread_ended_in_unit) == 0;
    } else if (have_thread_running_key) {
        pthread_key_delete(thread_running_key); /* every ES thread has been joined */
        have_thread_running_key = false;
    }
}

static void mark_thread_running(bb_xstream *es)
{
    if (have_thread_running_key) /* without it: no diagnosis, nothing worse */
        pthread_setspecific(thread_running_key, es);
}

static void *secondary_main(void *arg)
{
    bb_xstream *es = arg;
    mark_thread_running(es);
    bb_xstream_set_self(es);
    es->native_stack = NULL; /* a revived ES runs on a new thread and stack */
    es->native_stack_size = 0;
    es->native_unit->xstream = es;
    es->sched_unit->xstream = es;
    es->sched_unit->ctx = NULL; /* a revived ES starts its scheduler afresh */
    bb_xstream_open_inbox(es);
    bb_fpu_control_save(&es->sched_fpu); /* the OS thread's */
    bb_xstream_apply_binding(es);
    bb_overflow_thread_enter();
    bb_store_relaxed(&es->current, es->sched_unit);
    bb_switch(es->native_unit, es->sched_unit, NULL, NULL); /* until it stops */
    bb_overflow_thread_leave();
    bb_xstream_set_self(NULL);
    mark_thread_running(NULL);
    bb_xstream_publish_terminated(es);
    return NULL;
}

/* The primary ES's scheduler runs on a stack of its own, entered the first
 * time the primary ULT yields or blocks. It gives control back to the primary
 * ULT once ABT_finalize has asked it to finish and all work is done.
 * Restartable, like run_main_scheds. */
static void primary_sched_main(void *arg)
{
    (void)arg; /* the user's, NULL at first (see bb_unit_make_sched) */
    bb_xstream *es = bb_self_xstream();
    bb_unit *sched_unit = es->current; /* being started */
    bb_fpu_control_load(&es->sched_fpu);
    for (;;) {
        run_main_scheds(es);
        if (es->finalizer)
            break;
        drop_stop_requests(es); /* only ABT_finalize stops the primary ES */
    }
    bb_xstream_close_inbox(es);
    bb_unit *primary = es->finalizer;
    bb_store_relaxed(&es->current, primary);
    bb_switch_exit(sched_unit, primary, NULL, NULL);
}

/* RUNNING only once the thread exists: a migration that saw RUNNING (in
 * the table of ESs) would count a move into a pool that a failed start
 * then frees with the ES. The thread may also end before the CAS: it then
 * marked itself TERMINATED, which the CAS leaves. Release: whoever sees
 * RUNNING (with an acquire load) sees the ES as it was built, its main
 * scheduler included. */
static int start_thread(bb_xstream *es)
{
    bb_store_relaxed(&es->state, BB_XSTREAM_STARTING);
    pthread_t thread;
    if (pthread_create(&thread, NULL, secondary_main, es) != 0) {
        bb_store_relaxed(&es->state, (uint32_t)ABT_XSTREAM_STATE_TERMINATED);
        return ABT_ERR_SYS;
    }
    bb_xstream_set_thread(es, &thread);
    uint32_t starting = BB_XSTREAM_STARTING;
    bb_cas_acq_rel(&es->state, &starting, (uint32_t)ABT_XSTREAM_STATE_RUNNING);
    return ABT_SUCCESS;
}

/* ---- creation and destruction -------------------------------------------------- */

/* The unit of the main scheduler `s` of `es`, which starts at `entry`: on a
 * stack of ABT_SCHED_STACKSIZE, or under SC, if `s` is a predefined loop, on
 * a default-size ULT stack, lent at its first start, which it gives to a ULT
 * that deviates (bb_technique.h). Not while a sanitizer or valgrind watches:
 * no ULT runs on the scheduler's stack then (BB_SHORTCUT_RETURN), and their
 * frames are several times larger. */
static int make_sched_unit(bb_xstream *es, const bb_sched *s, bb_ctx_fn entry)
{
    if ((es->ult_steps & BB_STEP_SCHED_STACK) && bb_sched_is_stateless(s) &&
        !bb_fiber_tools.any) {
        es->sched_stack_small = bb_rt.config.thread_stacksize < bb_rt.config.sched_stacksize;
        return bb_unit_make_sched(bb_rt.config.thread_stacksize, true, entry, &es->sched_unit);
    }
    return bb_unit_make_sched(bb_rt.config.sched_stacksize, false, entry, &es->sched_unit);
}

/* A scheduler's code may count on a stack of ABT_SCHED_STACKSIZE (4 MiB by
 * default), and so may the tasklets it runs, which run on its stack. Where
 * the ES's scheduler stack is a small one (make_sched_unit), they get this
 * one instead: a user-defined main scheduler that replaced the predefined
 * loop runs on it (run_sched), and the predefined loop calls its tasklets
 * on it (switch.c). Neither switches away from it while the other needs
 * it: a tasklet never leaves its stack, and the predefined loop runs only
 * when no user-defined one does. Mapped at its first use, so that an ES
 * that needs none costs nothing. */
void *bb_xstream_big_stack(bb_xstream *es)
{
    if (!es->big_stack &&
        bb_mem_stack_alloc(&es->cache, bb_rt.config.sched_stacksize, &es->big_stack,
                           &es->big_stack_flags) != ABT_SUCCESS)
        es->big_stack = NULL;
    return es->big_stack;
}

/* The runtime's own units, which no tool heard of at their creation (no
 * CREATE event): none hears of their end either. */
static void release_units(bb_xstream *es)
{
    bb_unit_release_memory(es->sched_unit);
    if (es->big_stack) {
        bb_mem_stack_free(&es->cache, es->big_stack, bb_rt.config.sched_stacksize,
                          es->big_stack_flags);
        es->big_stack = NULL;
    }
    if (es->native_unit)
        bb_unit_release_memory(es->native_unit);
}

static int new_xstream(bb_sched *s, int rank, bb_ctx_fn sched_entry, bb_xstream **out)
{
    bb_xstream *es = bb_mem_calloc_lines(sizeof(*es));
    if (!es)
        return ABT_ERR_MEM;
    es->binding.cpuid = -1;
    pthread_mutex_init(&es->join_lock, NULL);
    es->running_sched = &bb_no_sched;
    bb_mem_cache_init(&es->cache);
    es->ult_steps = bb_technique_steps(bb_rt.config.technique);
    es->adaptive = bb_rt.config.technique == BB_TECH_AUTO;
    es->state = ABT_XSTREAM_STATE_TERMINATED;
    int err = bb_sched_attach(s, es); /* first: it may find a private pool taken */
    if (err != ABT_SUCCESS) {
        free(es);
        return err;
    }
    err = make_sched_unit(es, s, sched_entry);
    es->main_sched = s; /* the caller claimed it; before others find `es` in the table */
    if (err == ABT_SUCCESS) {
        err = bb_xstream_table_add(es, rank);
        if (err != ABT_SUCCESS)
            release_units(es);
    }
    if (err != ABT_SUCCESS) {
        bb_sched_detach(s);
        free(es);
        return err;
    }
    bb_xstream_init_binding(es);
    bb_store_relaxed(&s->unit, es->sched_unit);
    *out = es;
    return ABT_SUCCESS;
}

/* `at_finalize`: ABT_finalize frees it (drop_sched). */
static void destroy_xstream(bb_xstream *es, bool at_finalize)
{
    bb_xstream_table_remove(es);
    if (es->is_primary) {
        bb_sched_detach(es->main_sched);
        bb_sched_destroy_with_pools(es->main_sched);
    } else if (at_finalize) {
        drop_sched(es->main_sched);
    } else {
        retire_sched(es->main_sched);
    }
    release_units(es);
    bb_mem_cache_flush(&es->cache);
    free(es->binding.affinity);
    pthread_mutex_destroy(&es->join_lock);
    free(es);
}

static int create_secondary(bb_sched *s, int rank, ABT_xstream *newxstream)
{
    bb_xstream *es;
    int err = new_xstream(s, rank, secondary_sched_main, &es);
    if (err != ABT_SUCCESS)
        return err;
    err = bb_unit_make_sched(0, false, NULL, &es->native_unit); /* its OS thread's context */
    if (err == ABT_SUCCESS)
        err = start_thread(es);
    if (err != ABT_SUCCESS) {
        bb_xstream_table_remove(es); /* first: others may read its scheduler until then */
        es->main_sched = NULL;       /* the caller keeps its scheduler */
        bb_sched_detach(s);
        release_units(es);
        free(es);
        return err;
    }
    *newxstream = bb_xstream_handle(es);
    return ABT_SUCCESS;
}

int bb_xstream_create_primary(bb_xstream **out)
{
    bb_sched *s;
    int err = bb_sched_create_default(&s);
    if (err != ABT_SUCCESS)
        return err;
    bb_xstream *es;
    (void)bb_sched_claim(s, BB_SCHED_MAIN); /* new: nobody else has it */
    err = new_xstream(s, 0, primary_sched_main, &es);
    if (err != ABT_SUCCESS) {
        bb_sched_destroy(s);
        return err;
    }
    es->is_primary = true;
    bb_fpu_control_save(&es->sched_fpu); /* that of the thread calling ABT_init */
    es->thread = pthread_self(); /* not joinable (has_thread stays false): for binding */
    es->state = ABT_XSTREAM_STATE_RUNNING;
    es->sched_unit->xstream = es;
    *out = es;
    return ABT_SUCCESS;
}

/* ABT_finalize, on the primary ULT: let the main scheduler run every
 * remaining unit, then come back here and tear the primary ES down. */
void bb_xstream_stop_primary(bb_xstream *es)
{
    bb_unit *self = es->current;
    es->finalizer = self;
    bb_xstream_request_stop(es, BB_SCHED_REQ_FINISH);
    bb_store_relaxed(&es->current, es->sched_unit);
    bb_switch(self, es->sched_unit, NULL, NULL);
    /* Back on the primary ULT, after the scheduler stopped. Its unit of a
     * user pool goes back before any pool does. */
    bb_unit_drop_user_unit(self);
}

void bb_xstream_free_primary(bb_xstream *es)
{
    destroy_xstream(es, true);
}

static bool is_caller_on(bb_xstream *es)
{
    return bb_self_xstream() == es;
}

/* pthread_join is a cancellation point: a caller cancelled in it must
 * leave join_lock free, and the thread unreaped, for the next joiner. */
static void unlock_join_lock(void *es)
{
    pthread_mutex_unlock(&((bb_xstream *)es)->join_lock);
}

/* Under join_lock. */
static void reap_thread(bb_xstream *es)
{
    if (es->has_thread) {
        pthread_join(es->thread, NULL);
        bb_xstream_set_thread(es, NULL);
    }
}

/* Wait for a secondary ES to stop, without blocking the caller's ES while
 * other ULTs could run there. An ES's main scheduler has nowhere to yield
 * to: it waits in pthread_join, as an external thread does. */
static void join_thread(bb_xstream *es)
{
    bb_unit *self = bb_self_unit();
    if (self && bb_unit_is_ult(self) && !bb_unit_is_main_sched(self)) {
        /* Waking this ULT from the stopping ES would push it into its pool
         * from another OS thread, which a private pool forbids: poll, and
         * let the OS run others in between. */
        while (bb_load_acquire(&es->state) != ABT_XSTREAM_STATE_TERMINATED) {
            bb_ult_yield(self);
            sched_yield();
        }
    }
    pthread_mutex_lock(&es->join_lock); /* several may join at once: one pthread_join */
    pthread_cleanup_push(unlock_join_lock, es);
    reap_thread(es);
    pthread_cleanup_pop(1);
}

static bool has_thread(bb_xstream *es)
{
    pthread_mutex_lock(&es->join_lock);
    bool has = es->has_thread;
    pthread_mutex_unlock(&es->join_lock);
    return has;
}

/* A ULT joins the ES it runs on, which Argobots allows too: it cannot wait
 * there, so it parks until `es` has stopped, and `es` then puts it back
 * into its pool (release_self_joiners), where another ES takes it. Only a
 * pool that another scheduler shares can give it to one; in any other
 * pool nothing would run it again, and the join fails instead. */
static int leave_joined_xstream(bb_xstream *es)
{
    bb_unit *self = bb_self_unit();
    if (!self || !bb_unit_is_ult(self) || (self->flags & BB_UNIT_SCHED) ||
        !bb_pool_is_served_by_many(self->pool))
        return ABT_ERR_INV_XSTREAM;
    self->next = es->self_joiners; /* only ULTs on `es` get here, one at a time */
    es->self_joiners = self;
    bb_xstream_request_stop(es, BB_SCHED_REQ_FINISH);
    bb_ult_park(self);
    return ABT_SUCCESS; /* on another ES now */
}

/* `may_leave`: a ULT on `es` itself may join it (ABT_xstream_join, not
 * ABT_xstream_free, as in Argobots). */
static int join_secondary(bb_xstream *es, bool may_leave)
{
    if (es->is_primary)
        return ABT_ERR_INV_XSTREAM;
    if (is_caller_on(es)) {
        int err = may_leave ? leave_joined_xstream(es) : ABT_ERR_INV_XSTREAM;
        if (err != ABT_SUCCESS)
            return err;
    }
    if (has_thread(es)) {
        bb_xstream_request_stop(es, BB_SCHED_REQ_FINISH);
        join_thread(es);
    }
    return ABT_SUCCESS;
}

/* In *out the secondary ES at `rank`, or NULL; false past the table's end. */
static bool secondary_at(int rank, bb_xstream **out)
{
    pthread_mutex_lock(&bb_rt.lock);
    bool in_table = rank < bb_rt.xstreams_cap;
    bb_xstream *es = in_table ? bb_rt.xstreams[rank] : NULL;
    pthread_mutex_unlock(&bb_rt.lock);
    *out = es && !es->is_primary ? es : NULL;
    return in_table;
}

/* ABT_finalize, first step: every secondary ES stops, so that only the
 * primary ES runs units from then on. Each stays, its pools alive, until
 * bb_xstream_free_secondaries: a unit woken meanwhile (by the alarm of its
 * timed wait, or by one of the primary's last units) is put back in a pool
 * that still exists. A pass that joined one looks again: a unit of the ES
 * joined may have created another. */
void bb_xstream_join_secondaries(void)
{
    for (bool joined = true; joined;) {
        joined = false;
        bb_xstream *es;
        for (int rank = 0; secondary_at(rank, &es); rank++) {
            if (es && has_thread(es)) {
                join_secondary(es, false);
                joined = true;
            }
        }
    }
}

/* ABT_finalize, once no unit runs any more: secondary ESs the user did not
 * free are freed (and joined, if one was created since
 * bb_xstream_join_secondaries). */
void bb_xstream_free_secondaries(void)
{
    for (;;) {
        bb_xstream *victim = NULL;
        pthread_mutex_lock(&bb_rt.lock);
        for (int r = 0; r < bb_rt.xstreams_cap && !victim; r++)
            if (bb_rt.xstreams[r] && !bb_rt.xstreams[r]->is_primary)
                victim = bb_rt.xstreams[r];
        pthread_mutex_unlock(&bb_rt.lock);
        if (!victim)
            return;
        join_secondary(victim, false);
        destroy_xstream(victim, true);
    }
}

/* ---- public API: life cycle ------------------------------------------------ */

/* The scheduler a new ES will run, claimed for it. */
static int claim_sched_for_new_xstream(ABT_sched sched, bb_sched **out)
{
    bb_sched *s;
    if (sched == ABT_SCHED_NULL) {
        int err = bb_sched_create_default(&s);
        if (err != ABT_SUCCESS)
            return err;
    } else {
        s = bb_sched_of(sched);
    }
    if (!bb_sched_claim(s, BB_SCHED_MAIN))
        return ABT_ERR_INV_SCHED;
    *out = s;
    return ABT_SUCCESS;
}

static int create_with_rank(ABT_sched sched, int rank, ABT_xstream *newxstream)
{
    if (!newxstream)
        return ABT_ERR_INV_ARG;
    *newxstream = ABT_XSTREAM_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_sched *s;
    int err = claim_sched_for_new_xstream(sched, &s);
    if (err != ABT_SUCCESS)
        return err;
    err = create_secondary(s, rank, newxstream);
    if (err != ABT_SUCCESS) {
        bb_sched_unclaim(s);
        if (sched == ABT_SCHED_NULL)
            bb_sched_destroy(s);
    }
    return err;
}

int ABT_xstream_create(ABT_sched sched, ABT_xstream *newxstream)
{
    return create_with_rank(sched, -1, newxstream);
}

int ABT_xstream_create_with_rank(ABT_sched sched, int rank, ABT_xstream *newxstream)
{
    if (rank < 0) {
        if (newxstream)
            *newxstream = ABT_XSTREAM_NULL;
        return bb_is_up() ? ABT_ERR_INV_XSTREAM_RANK : ABT_ERR_UNINITIALIZED;
    }
    return create_with_rank(sched, rank, newxstream);
}

int ABT_xstream_create_basic(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                             ABT_sched_config config, ABT_xstream *newxstream)
{
    if (!newxstream)
        return ABT_ERR_INV_ARG;
    *newxstream = ABT_XSTREAM_NULL;
    ABT_sched sched;
    int err = ABT_sched_create_basic(predef, num_pools, pools, config, &sched);
    if (err != ABT_SUCCESS)
        return err;
    err = ABT_xstream_create(sched, newxstream);
    if (err != ABT_SUCCESS)
        bb_sched_discard(bb_sched_of(sched), (bb_pool *const *)(void *)pools);
    return err;
}

int ABT_xstream_join(ABT_xstream xstream)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    return join_secondary(bb_xstream_of(xstream), true);
}

int ABT_xstream_free(ABT_xstream *xstream)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!xstream || *xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    bb_xstream *es = bb_xstream_of(*xstream);
    int err = join_secondary(es, false);
    if (err != ABT_SUCCESS)
        return err;
    destroy_xstream(es, false);
    *xstream = ABT_XSTREAM_NULL;
    return ABT_SUCCESS;
}

int ABT_xstream_revive(ABT_xstream xstream)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    bb_xstream *es = bb_xstream_of(xstream);
    if (es->is_primary)
        return ABT_ERR_INV_XSTREAM;
    /* Its pthread_join is short (the ES has terminated): not cancelled in
     * it, the caller cannot leave join_lock held (join_thread). */
    int cancel_state;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
    int err = ABT_ERR_INV_XSTREAM;
    pthread_mutex_lock(&es->join_lock); /* against joins, and another revive */
    if (bb_load_acquire(&es->state) == ABT_XSTREAM_STATE_TERMINATED) {
        reap_thread(es);
        bb_spin_lock(&es->sched_lock); /* a revived ES starts with no stop request */
        es->stop_bits = 0;
        bb_store_relaxed(&es->main_sched->request, 0u);
        bb_spin_unlock(&es->sched_lock);
        err = start_thread(es);
    }
    pthread_mutex_unlock(&es->join_lock);
    pthread_setcancelstate(cancel_state, NULL);
    return err;
}

int ABT_xstream_exit(void)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_xstream *es = bb_self_xstream();
    if (!es)
        return ABT_ERR_INV_XSTREAM;
    bb_unit *self = es->current;
    if (!bb_unit_is_ult(self))
        return ABT_ERR_INV_THREAD;
    if (es->is_primary)
        return ABT_ERR_INV_XSTREAM;
    bb_xstream_request_stop(es, BB_SCHED_REQ_EXIT);
    if (self->flags & BB_UNIT_SCHED)
        return ABT_SUCCESS; /* a scheduler only asks: the main one sees the request at
                               its next check; a stacked one must not end mid-loop
                               (it would stay in use for ever, its pools retained,
                               its units never run), its parent stops instead */
    bb_ult_exit(self);
}

int ABT_xstream_cancel(ABT_xstream xstream)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    bb_xstream *es = bb_xstream_of(xstream);
    if (es->is_primary)
        return ABT_ERR_INV_XSTREAM;
    bb_xstream_request_stop(es, BB_SCHED_REQ_EXIT);
    return ABT_SUCCESS;
}

/* ---- public API: queries --------------------------------------------------- */

/* Common checks of the getters: initialized, a handle, somewhere to write. */
static int check_xstream_query(ABT_xstream xstream, const void *out)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    return out ? ABT_SUCCESS : ABT_ERR_INV_ARG;
}

int ABT_xstream_self(ABT_xstream *xstream)
{
    if (!xstream)
        return ABT_ERR_INV_ARG;
    *xstream = ABT_XSTREAM_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_xstream *es = bb_self_xstream();
    if (!es)
        return ABT_ERR_INV_XSTREAM;
    *xstream = bb_xstream_handle(es);
    return ABT_SUCCESS;
}

int ABT_xstream_self_rank(int *rank)
{
    if (!rank)
        return ABT_ERR_INV_ARG;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_xstream *es = bb_self_xstream();
    if (!es)
        return ABT_ERR_INV_XSTREAM;
    *rank = bb_load_relaxed(&es->rank);
    return ABT_SUCCESS;
}

int ABT_xstream_set_rank(ABT_xstream xstream, int rank)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL || bb_xstream_of(xstream)->is_primary)
        return ABT_ERR_INV_XSTREAM;
    if (rank < 0)
        return ABT_ERR_INV_XSTREAM_RANK;
    bb_xstream *es = bb_xstream_of(xstream);
    int err = bb_xstream_table_set_rank(es, rank);
    if (err == ABT_SUCCESS)
        err = bb_xstream_rebind_for_rank(es);
    return err;
}

int ABT_xstream_get_rank(ABT_xstream xstream, int *rank)
{
    int err = check_xstream_query(xstream, rank);
    if (err != ABT_SUCCESS)
        return err;
    *rank = bb_load_relaxed(&bb_xstream_of(xstream)->rank);
    return ABT_SUCCESS;
}

int ABT_xstream_get_main_sched(ABT_xstream xstream, ABT_sched *sched)
{
    int err = check_xstream_query(xstream, sched);
    if (err != ABT_SUCCESS)
        return err;
    bb_sched *s = bb_xstream_pin_main_sched(bb_xstream_of(xstream));
    *sched = bb_sched_handle(s);
    bb_sched_unpin(s);
    return ABT_SUCCESS;
}

int ABT_xstream_get_main_pools(ABT_xstream xstream, int max_pools, ABT_pool *pools)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    if (max_pools < 0 || (max_pools > 0 && !pools))
        return ABT_ERR_INV_ARG;
    bb_sched *s = bb_xstream_pin_main_sched(bb_xstream_of(xstream));
    for (int i = 0; i < max_pools && i < s->num_pools; i++)
        pools[i] = bb_pool_handle(s->pools[i]);
    bb_sched_unpin(s);
    return ABT_SUCCESS;
}

int ABT_xstream_get_state(ABT_xstream xstream, ABT_xstream_state *state)
{
    int err = check_xstream_query(xstream, state);
    if (err != ABT_SUCCESS)
        return err;
    bool ended = bb_load_acquire(&bb_xstream_of(xstream)->state) == ABT_XSTREAM_STATE_TERMINATED;
    *state = ended ? ABT_XSTREAM_STATE_TERMINATED : ABT_XSTREAM_STATE_RUNNING; /* or STARTING */
    return ABT_SUCCESS;
}

int ABT_xstream_equal(ABT_xstream xstream1, ABT_xstream xstream2, ABT_bool *result)
{
    if (!result)
        return ABT_ERR_INV_ARG;
    *result = xstream1 == xstream2 ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

int ABT_xstream_get_num(int *num_xstreams)
{
    if (!num_xstreams)
        return ABT_ERR_INV_ARG;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    *num_xstreams = bb_load_relaxed(&bb_rt.num_xstreams);
    return ABT_SUCCESS;
}

int ABT_xstream_is_primary(ABT_xstream xstream, ABT_bool *is_primary)
{
    int err = check_xstream_query(xstream, is_primary);
    if (err != ABT_SUCCESS)
        return err;
    *is_primary = bb_xstream_of(xstream)->is_primary ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

/* ---- public API: scheduling ------------------------------------------------- */

int ABT_xstream_run_unit(ABT_unit unit, ABT_pool pool)
{
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_xstream *es = bb_self_xstream();
    if (!es)
        return ABT_ERR_INV_XSTREAM;
    if (!bb_unit_is_ult(es->current))
        return ABT_ERR_INV_THREAD; /* only a scheduler ULT runs units */
    bb_unit *u = bb_unit_from_handle(unit);
    if (!u)
        return ABT_ERR_INV_UNIT;
    return bb_xstream_run_unit_from_user(es, u, bb_pool_of(pool));
}

int ABT_xstream_check_events(ABT_sched sched)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_xstream *es = bb_self_xstream();
    if (!es)
        return ABT_ERR_INV_XSTREAM;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    if (bb_sched_of(sched)->unit != es->current)
        return ABT_ERR_INV_THREAD; /* only the ULT running this scheduler */
    bb_sched_check_events(bb_sched_of(sched));
    return ABT_SUCCESS;
}

/* The caller of ABT_xstream_set_main_sched(_basic): a ULT, and one running on
 * the ES if that ES runs. */
static int check_sched_replacer(bb_xstream *es, bb_unit **self)
{
    int err = bb_caller_ult(self);
    if (err != ABT_SUCCESS)
        return err;
    bool running = es->is_primary ||
                   bb_load_acquire(&es->state) != ABT_XSTREAM_STATE_TERMINATED;
    if (running && (bb_self_xstream() != es || ((*self)->flags & BB_UNIT_SCHED)))
        return ABT_ERR_XSTREAM_STATE;
    return ABT_SUCCESS;
}

/* A replacement is already pending on `es` (its ULTs run while the old
 * scheduler drains its pools), and another caller replaces the scheduler
 * again: the later call wins, as in Argobots. The pending scheduler is
 * dropped, never having run (drop_pending, once the winner is installed);
 * the earlier caller, parked until the switch, returns now, with success,
 * in `pool`, the winner's first pool, since its own pool may die with the
 * dropped scheduler. */
static int move_earlier_replacer(bb_xstream *es, bb_pool *pool)
{
    return bb_unit_set_pool(es->replacer, pool);
}

static void drop_pending(bb_xstream *es, bb_sched *pending)
{
    retire_sched(pending);
    bb_unit *earlier = es->replacer;
    es->replacer = NULL;
    bb_unit_make_ready(earlier);
}

/* Install `s`, claimed by the caller, as the main scheduler of `es`; the
 * caller passed check_sched_replacer. On a running ES the caller moves into
 * the new scheduler's first pool, so there must be one; a replacement still
 * pending there gives way (move_earlier_replacer, drop_pending). */
static int replace_main_sched(bb_xstream *es, bb_unit *self, bb_sched *s)
{
    bool running_here = bb_self_xstream() == es;
    bb_sched *pending = NULL;
    if (running_here && s->num_pools == 0)
        return ABT_ERR_INV_SCHED;
    int err = bb_sched_attach(s, es); /* first: it may find a private pool taken */
    if (err != ABT_SUCCESS)
        return err;
    if (running_here) {
        bb_pool *was = self->pool;
        err = bb_unit_set_pool(self, s->pools[0]);
        if (err == ABT_SUCCESS && es->retiring)
            err = move_earlier_replacer(es, s->pools[0]);
        if (err != ABT_SUCCESS) {
            (void)bb_unit_set_pool(self, was); /* back; only a user pool's create_unit
                                                  could fail, and leave it in s's pool */
            bb_sched_detach(s);
            return err;
        }
        if (es->retiring)
            pending = es->main_sched;
    }
    bb_sched *old = es->retiring ? es->retiring : es->main_sched;
    install_main_sched(es, s, running_here ? old : NULL);
    if (pending)
        drop_pending(es, pending);
    if (!running_here) {
        retire_sched(old); /* not running: used from ABT_xstream_revive on */
        return ABT_SUCCESS;
    }
    /* Running, and the caller is on it: the caller moves to the new
     * scheduler's first pool and is parked until the old scheduler has run
     * its pools dry, as with FINISH; then run_main_scheds retires it, wakes
     * the caller and goes on with the new one. On the primary ES before its
     * first yield, the old scheduler has not even started: it starts now, to
     * run what its pools hold. */
    es->replacer = self;
    bb_sched_request(old, BB_SCHED_REQ_REPLACE);
    bb_ult_park(self);
    return ABT_SUCCESS;
}

int ABT_xstream_set_main_sched(ABT_xstream xstream, ABT_sched sched)
{
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_xstream *es = bb_xstream_of(xstream);
    bb_unit *self;
    int err = check_sched_replacer(es, &self);
    if (err != ABT_SUCCESS)
        return err;
    bb_sched *s;
    if (sched == ABT_SCHED_NULL) {
        err = bb_sched_create_default(&s);
        if (err != ABT_SUCCESS)
            return err;
    } else {
        s = bb_sched_of(sched);
    }
    if (!bb_sched_claim(s, BB_SCHED_MAIN))
        return ABT_ERR_INV_SCHED;
    err = replace_main_sched(es, self, s);
    if (err != ABT_SUCCESS) {
        bb_sched_unclaim(s);
        if (sched == ABT_SCHED_NULL)
            bb_sched_destroy(s);
    }
    return err;
}

int ABT_xstream_set_main_sched_basic(ABT_xstream xstream, ABT_sched_predef predef,
                                     int num_pools, ABT_pool *pools)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err != ABT_SUCCESS)
        return err;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    bb_xstream *es = bb_xstream_of(xstream);
    err = check_sched_replacer(es, &self);
    if (err != ABT_SUCCESS)
        return err;
    ABT_sched sched;
    err = ABT_sched_create_basic(predef, num_pools, pools, ABT_SCHED_CONFIG_NULL, &sched);
    if (err != ABT_SUCCESS)
        return err;
    bb_sched *s = bb_sched_of(sched);
    (void)bb_sched_claim(s, BB_SCHED_MAIN); /* new: nobody else has it */
    err = replace_main_sched(es, self, s);
    if (err != ABT_SUCCESS) {
        bb_sched_unclaim(s);
        bb_sched_discard(s, (bb_pool *const *)(void *)pools);
    }
    return err;
}
