/*
 * Every general context switch of a ULT happens in this file (the shortcuts
 * of hotpath.c and an ES thread's entry in xstream.c switch through
 * bb_switch too). So does what a scheduler calls to run a unit, and what
 * makes a unit ready again: its push, a forwarded move, the blocked count,
 * and the inbox of wake-ups from other ESs.
 *
 * The rule that keeps it simple: whoever switches sets `es->current` to the
 * unit it switches to, and anything that must happen once the old context is
 * fully saved (put it back in a pool, publish it as a joiner, release it) is
 * a callback handed to bb_ctx_jump/bb_ctx_exit, which runs on the new stack
 * before the new context resumes. Nothing is left behind in "pending request"
 * fields for someone else to notice later.
 *
 * A ULT always returns to its `parent`: the scheduler ULT that ran it (on
 * every ES, the main scheduler's unit, which has a stack of its own; the ES
 * thread's own context is its `native_unit`), or whoever ran it directly.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bb_ctx.h"
#include "bb_mem.h"
#include "bb_pool.h"
#include "bb_pool_list.h"
#include "bb_print.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_switch.h"
#include "bb_tool.h"
#include "bb_unit.h"
#include "bb_wait.h"
#include "bb_waiter.h"
#include "bb_xstream.h"


/* ---- where a unit goes when it becomes ready ----------------------------- */

/* Push `u` into `to` (moved there, or staying if `stays`), and drop the
 * to-come count of `counted`, the target its move counted (migrate.c), if
 * any. Into that same pool the count drops after the push, so that its
 * scheduler never sees the unit neither counted nor queued; into a built-in
 * pool under the same hold of its lock (push_resumed: a shared pool, or a
 * private one without a home, which also takes its lock), so that nobody
 * can take the unit out, run it and free it while the pool still counts it,
 * which ABT_pool_free would refuse meanwhile. A pool the unit does not enter
 * drops its count first, for the same reason. */
static void push_and_uncount(bb_pool *to, bb_unit *u, bb_pool *counted, bb_pool_ctx ctx,
                             bool stays)
{
    if (counted && counted == to && to->ops->push_resumed && bb_pool_touchable_here(to)) {
        to->ops->push_resumed(to, u, stays ? ctx : ABT_POOL_CONTEXT_OP_THREAD_MIGRATE);
        return;
    }
    if (counted && counted != to)
        bb_unit_uncount_blocked(counted, to);
    if (stays && bb_pool_surely_open_to(to, bb_self_xstream()))
        bb_pool_push(to, u, ctx);
    else
        bb_pool_push_migrated(to, u); /* or through its incoming stack */
    if (counted && counted == to)
        bb_unit_uncount_blocked(counted, to);
}

void bb_unit_push_counted(bb_unit *u, bb_pool *counted)
{
    push_and_uncount(u->pool, u, counted, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE, false);
}

bb_pool *bb_unit_forward(bb_unit *u, bb_pool *p, bb_pool_ctx ctx, bool counted_in_p)
{
    bb_pool *was = u->pool;
    bb_pool *counted = bb_unit_apply_migration(u);
    bb_pool *to = u->pool;
    if (counted_in_p && to != p)
        bb_unit_uncount_blocked(p, to); /* it never enters `p` */
    push_and_uncount(to, u, counted, ctx, to == was);
    if (counted_in_p && to == p)
        bb_unit_uncount_blocked(p, to);
    return to;
}

/* Out of line and reached by a tail call, so that push_ready's common path
 * builds no stack frame. */
__attribute__((noinline)) bb_pool *bb_unit_push_migrating(bb_unit *u, bb_pool_ctx ctx)
{
    return bb_unit_forward(u, NULL, ctx, false);
}

/* Push `u` where it belongs now; returns that pool. A private pool of
 * another ES (a ULT a *_to call ran here, or woken here) gets it through
 * its incoming stack, as a migration does. */
static inline bb_pool *push_ready(bb_unit *u, bb_pool_ctx ctx)
{
    if (bb_unit_has_move_pending(u))
        return bb_unit_push_migrating(u, ctx);
    bb_pool *to = u->pool;
    if (__builtin_expect(!bb_pool_surely_open_to(to, bb_self_xstream()), 0))
        bb_pool_push_migrated(to, u);
    else
        bb_pool_push(to, u, ctx);
    return to;
}

/* ---- callbacks, run on the next context ---------------------------------- */

/* Tool events of a unit that leaves its context (yield, exit) fire here, on
 * the next context: these callbacks make calls anyway, so the check costs
 * no stack frame on the switch path itself. */
static inline void requeue(bb_unit *u, bb_pool_ctx ctx)
{
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_YIELD, u->pool, NULL, u->parent,
                  ABT_SYNC_EVENT_TYPE_USER, NULL);
    bb_store_relaxed(&u->state, (uint32_t)ABT_THREAD_STATE_READY);
    (void)push_ready(u, ctx);
}

/* One per push context, which tells a user pool why the unit comes back. */
static void requeue_yielded(void *arg)
{
    requeue(arg, ABT_POOL_CONTEXT_OP_THREAD_YIELD);
}

static void requeue_yielded_to(void *arg)
{
    requeue(arg, ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO);
}

static void requeue_resume_yielded_to(void *arg)
{
    requeue(arg, ABT_POOL_CONTEXT_OP_THREAD_RESUME_YIELD_TO);
}

/* A ULT about to run (only when a tool wants RUN): on its own stack, before
 * it resumes, so that the scheduler's switch path needs no stack frame. */
static void announce_run(void *arg)
{
    bb_unit *u = arg;
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_RUN, NULL, u->parent, u->parent, 0, NULL);
}

static void finish_exited(void *arg)
{
    bb_unit *u = arg;
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_FINISH, NULL, NULL, u->parent, 0, NULL);
    bb_unit_terminate(u);
}

static void publish_suspended(void *arg)
{
    bb_unit *u = arg;
    /* The state was set to BLOCKED before the switch so that ABT_thread_resume
     * may come at any time; `switching` tells a scheduler that pops the unit
     * early to wait until its context is saved, i.e. until now. */
    bb_store_release(&u->switching, 0u);
}

/* A blocking joiner, and its link if others join the target too, on its
 * stack, which stays while it is blocked. */
typedef struct {
    bb_unit *self;
    bb_join_link link;
} join_wait;

static void register_joiner(void *arg)
{
    join_wait *j = arg;
    bb_unit *self = j->self;
    bb_unit *target = (bb_unit *)self->wait_target;
    bb_store_release(&self->state, (uint32_t)ABT_THREAD_STATE_BLOCKED);
    if (!bb_unit_add_joiner(target, bb_waiter_of_ult(self), &j->link))
        bb_unit_make_ready(self); /* it ended meanwhile: nothing will wake us */
}

/* ---- switches ----------------------------------------------------------- */

__attribute__((noinline)) void bb_switch_to_fresh(bb_unit *from, bb_unit *to, bb_ctx_fn fn,
                                                  void *arg)
{
    bb_ult_ensure_stack_on(bb_self_xstream(), to); /* a switch runs on an ES */
    if (!fn)
        bb_ctx_start(&from->ctx, to->stack, to->stacksize, bb_ult_start, to);
    else
        bb_ctx_jump(&from->ctx, bb_unit_fresh_context(to), fn, arg);
}

__attribute__((noinline)) int bb_switch_to_new(bb_unit *from, bb_unit *to)
{
    bb_switch(from, to, NULL, NULL);
    return ABT_SUCCESS;
}

static void switch_to_parent(bb_unit *self, bb_ctx_fn then, void *arg)
{
    bb_xstream *es = bb_self_xstream();
    bb_unit *parent = self->parent;
    bb_store_relaxed(&es->current, parent);
    bb_switch(self, parent, then, arg);
}

/* A unit about to run has a request: a cancel ends it, a migration moves it
 * into its target pool instead of running it here (that is how a unit
 * waiting in a pool without a remove operation migrates). Returns whether
 * the unit should still run. */
static __attribute__((noinline)) bool serve_requests(bb_unit *u)
{
    uint32_t req = bb_load_relaxed(&u->requests);
    if ((req & BB_REQ_CANCEL) && !bb_load_relaxed(&u->in_wait)) {
        BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_CANCEL, NULL, NULL, NULL, 0, NULL);
        u->wait_target = NULL; /* transient, cleared when it runs, which it will not:
                                  a creator's child must not take this descriptor,
                                  reused, for its creator (take_back) */
        bb_unit_terminate(u);
        return false;
    }
    if (req & BB_REQ_MIGRATE) {
        bb_pool *before = u->pool;
        bb_pool *counted = bb_unit_apply_migration(u);
        bb_pool *to = u->pool;
        if (to != before) {
            push_and_uncount(to, u, counted, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE, false);
            return false;
        }
        if (counted)
            bb_unit_uncount_blocked(counted, to); /* it stays, and runs now */
    }
    return true;
}

/* The stack a scheduler lends each SC ULT it calls (begin_lending). */
typedef struct {
    void *stack;
    uint8_t flags; /* its lent_stack */
} sched_loan;

static inline bool sched_stack_lendable(const bb_xstream *es, const bb_unit *sched);
static inline sched_loan begin_lending(bb_unit *sched);
static inline void end_lending(bb_unit *sched, const sched_loan *loan);
static inline bool never_ran_lazy(const bb_unit *u);
static inline __attribute__((always_inline)) void
run_on_sched_stack(bb_xstream *es, bb_unit *sched, bb_unit *u, const sched_loan *loan);
/* (These SC helpers are defined with the SC run, under "starting and
 * finishing a ULT" below.) */

/* `u` runs on `es` from now on (others read its ES, e.g. get_last_xstream). */
static inline void set_running(bb_xstream *es, bb_unit *u)
{
    bb_store_relaxed(&u->xstream, es);
    bb_store_relaxed(&u->state, (uint32_t)ABT_THREAD_STATE_RUNNING);
    bb_store_relaxed(&es->current, u);
}

static inline bool has_requests(bb_unit *u)
{
    return __builtin_expect(bb_unit_has_requests(u), 0);
}

/* A scheduler's loop calls a tasklet's function at once: below it on its
 * stack there are only the loop's frames, so that an exception that escapes
 * the function ends in std::terminate. A user's ABT_self_schedule or
 * ABT_xstream_run_unit may be called from anywhere (a ULT's function, a
 * user-defined scheduler), with the user's own `try` below: there the
 * function runs in an outermost frame (outermost.c). */
static inline void call_tasklet_func(bb_unit *u, bool outermost)
{
    if (outermost)
        bb_call_outermost(u->func, bb_unit_start_arg(u));
    else
        u->func(bb_unit_start_arg(u));
}

/* A tasklet, with a tool watching its run or finish. */
static __attribute__((noinline)) void run_tasklet_watched(bb_unit *sched_unit, bb_unit *u,
                                                          bool outermost)
{
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_RUN, NULL, sched_unit, sched_unit, 0, NULL);
    call_tasklet_func(u, outermost);
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_FINISH, NULL, NULL, sched_unit, 0, NULL);
}

/* The tool mask is looked at once: a tool registered while the tasklet
 * runs sees neither its run nor its finish. `outermost`: a constant
 * (call_tasklet_func). */
static inline __attribute__((always_inline)) void
run_tasklet_in(bb_xstream *es, bb_unit *sched_unit, bb_unit *u, bool outermost)
{
    if (has_requests(u) && !serve_requests(u))
        return;
    set_running(es, u);
    if (__builtin_expect(
            bb_tool_wants(ABT_TOOL_EVENT_THREAD_RUN | ABT_TOOL_EVENT_THREAD_FINISH), 0))
        run_tasklet_watched(sched_unit, u, outermost);
    else
        call_tasklet_func(u, outermost);
    bb_store_relaxed(&es->current, sched_unit); /* a tasklet never leaves its ES */
    bb_unit_end_tasklet(u);
}

static inline void run_tasklet(bb_xstream *es, bb_unit *sched_unit, bb_unit *u)
{
    run_tasklet_in(es, sched_unit, u, false);
}

/* A ULT, other than the SC case: started or resumed on its own stack. */
static inline void run_ult(bb_xstream *es, bb_unit *sched_unit, bb_unit *u)
{
    bb_unit_wait_until_saved(u); /* before a request may end it and free its stack */
    if (has_requests(u) && !serve_requests(u))
        return;
    set_running(es, u);
    u->parent = sched_unit;
    bool wanted = __builtin_expect(bb_tool_wants(ABT_TOOL_EVENT_THREAD_RUN), 0);
    if (!u->ctx && !wanted)
        bb_ult_begin(es, sched_unit, u);
    else
        bb_switch(sched_unit, u, wanted ? announce_run : NULL, u);
}

/* Scheduler side: `sched_unit`, the current unit of `es`, runs `u` until it
 * yields, blocks or finishes. `loan`: what it lends an SC ULT, if it may
 * lend its stack (begin_lending), NULL if not. Inlined into its callers
 * below, which saves a call and a frame per unit of a scheduler's loop. */
static inline __attribute__((always_inline)) void
run_unit(bb_xstream *es, bb_unit *sched_unit, bb_unit *u, const sched_loan *loan)
{
    if (!bb_unit_is_ult(u)) {
        run_tasklet(es, sched_unit, u);
    } else if (loan && never_ran_lazy(u) && bb_shortcut_on(BB_SHORTCUT_RETURN) &&
               !has_requests(u)) {
        set_running(es, u); /* it never ran: no context of it is being saved */
        u->parent = sched_unit;
        run_on_sched_stack(es, sched_unit, u, loan);
    } else if (loan) {
        end_lending(sched_unit, loan); /* its own stack while `u` may restart it */
        run_ult(es, sched_unit, u);
        (void)begin_lending(sched_unit);
    } else {
        run_ult(es, sched_unit, u);
    }
}

/* ---- tasklets beside a small scheduler stack ---------------------------------
 *
 * A tasklet runs on its scheduler's stack, and an Argobots program may count
 * on that being one of ABT_SCHED_STACKSIZE (4 MiB by default), far more than
 * a ULT's. Under SC the predefined main loop of an ES runs on a ULT-size
 * stack, which it lends to the ULTs it calls (xstream.c, make_sched_unit),
 * so it calls its tasklets on the ES's big stack (bb_xstream_big_stack)
 * instead. Tasklets that follow each other in its pool run there in one
 * visit, so that a fork-join of tasklets changes stacks once per pass of
 * the loop, not once per tasklet. */

/* A unit popped from `pool`, a pool other than a private FIFO, associated
 * with it (ABT_xstream_run_unit's rule): a user pool's code may give back a
 * unit it was not handed. A private FIFO holds only units associated with
 * it (every push associates the unit first). */
static inline bb_unit *pop_associated(bb_pool *pool)
{
    bb_unit *u = bb_pool_pop(pool);
    if (u && __builtin_expect(u->pool != pool, 0))
        (void)bb_unit_set_pool(u, pool);
    return u;
}

/* Whether `sched_unit`, the running scheduler of `es`, is its predefined
 * main loop on a small stack. */
static inline bool tasklets_go_aside(const bb_xstream *es, const bb_unit *sched_unit)
{
    return es->sched_stack_small && sched_unit == es->restartable;
}

typedef struct {
    bb_xstream *es;
    bb_unit *u;        /* the tasklet to run */
    bb_sched *s;       /* the scheduler whose loop popped it, or NULL: run `u` alone */
    bb_pool *pool;     /* from its first pool, */
    bool private_fifo; /* a private FIFO */
} tasklet_run;

/* The next unit of the loop's pool if it is a tasklet: from a private FIFO,
 * taken only if it is one. Any other pool cannot be looked into: its unit
 * is taken anyway, and a ULT is handed to the scheduler, which runs it
 * first in its next pass (as after a direct yield, hotpath.c), ending this
 * one. */
static inline __attribute__((always_inline)) bb_unit *next_tasklet(bb_sched *s, bb_pool *pool,
                                                                    bool private_fifo)
{
    if (private_fifo) {
        bb_unit *u = pool->head;
        return u && !bb_unit_is_ult(u) ? list_pop_head(pool) : NULL;
    }
    bb_unit *u = pop_associated(pool);
    if (u && bb_unit_is_ult(u)) {
        s->handed = u;
        s->rounds_left = 1;
        return NULL;
    }
    return u;
}

/* The tasklets that come next in the first pool of `s`, one round each, as
 * long as a round is left for the loop to count the first one with;
 * `private_fifo` is a constant. */
static inline __attribute__((always_inline)) void
run_next_tasklets(bb_xstream *es, bb_unit *sched_unit, bb_sched *s, bb_pool *pool,
                  bool private_fifo)
{
    bb_unit *u;
    while (s->rounds_left > 1 && (u = next_tasklet(s, pool, private_fifo)) != NULL) {
        s->rounds_left--;
        run_tasklet(es, sched_unit, u);
    }
}

/* On the big stack: the tasklet r->u, then those next to it. */
static void run_tasklets(void *arg)
{
    tasklet_run *r = arg;
    bb_xstream *es = r->es;
    bb_unit *sched_unit = es->current;
    run_tasklet(es, sched_unit, r->u);
    if (!r->s)
        return;
    if (r->private_fifo)
        run_next_tasklets(es, sched_unit, r->s, r->pool, true);
    else
        run_next_tasklets(es, sched_unit, r->s, r->pool, false);
}

/* Out of line, with the run's fields as arguments, so that the scheduler's
 * loop keeps no frame for them; and `cold`, though it is not for a loop
 * that runs tasklets, because the hint keeps GCC from giving up, for its
 * sake, the registers the loop's ULT path uses (7 instructions more per ULT
 * without it). Without memory for the big stack, the tasklets run where
 * they did before. */
static __attribute__((noinline, cold)) void
run_tasklets_aside(bb_xstream *es, bb_unit *u, bb_sched *s, bb_pool *pool, bool private_fifo)
{
    tasklet_run r = {es, u, s, pool, private_fifo};
    void *stack = bb_xstream_big_stack(es);
    if (stack)
        bb_ctx_run_on(stack, bb_rt.config.sched_stacksize, run_tasklets, &r);
    else
        run_tasklets(&r);
}

/* ---- running units ------------------------------------------------------- */

void bb_unit_run_for_user(bb_xstream *es, bb_unit *u)
{
    if (bb_unit_is_ult(u))
        bb_unit_run(es, u);
    else
        run_tasklet_in(es, es->current, u, true);
}

void bb_unit_run(bb_xstream *es, bb_unit *u)
{
    bb_unit *sched_unit = es->current;
    if (!bb_unit_is_ult(u) && tasklets_go_aside(es, sched_unit)) {
        run_tasklets_aside(es, u, NULL, NULL, false);
    } else if (sched_stack_lendable(es, sched_unit)) {
        sched_loan loan = begin_lending(sched_unit);
        run_unit(es, sched_unit, u, &loan);
        end_lending(sched_unit, &loan);
    } else {
        run_unit(es, sched_unit, u, NULL);
    }
}

/* The loop of the callers below, where `private_fifo`, `sc` and `aside`
 * (tasklets_go_aside) are constants. It runs on one ES throughout, as the
 * scheduler `s` on it does: a scheduler leaves its ES only by a yield of its
 * own, between loops (a deviation under SC restarts it, and this loop with
 * it). What `sc` depends on stays as it is meanwhile, but for a change of
 * technique (auto), which applies from the next loop on: either way is a
 * valid run of a ULT. */
static inline __attribute__((always_inline)) bool
run_first_pool(bb_xstream *es, bb_sched *s, bb_pool *pool, bool private_fifo, bool sc,
               bool aside)
{
    bb_unit *sched_unit = es->current;
    sched_loan loan = sc ? begin_lending(sched_unit) : (sched_loan){0};
    unsigned before = s->rounds_left;
    bb_unit *u;
    while ((u = private_fifo ? list_pop_head(pool) : pop_associated(pool)) != NULL) {
        if (aside && !bb_unit_is_ult(u))
            run_tasklets_aside(es, u, s, pool, private_fifo); /* and those next to it */
        else
            run_unit(es, sched_unit, u, sc ? &loan : NULL);
        if (bb_owned_dec_is_zero(&s->rounds_left))
            break;
    }
    if (sc)
        end_lending(sched_unit, &loan);
    return s->rounds_left != before;
}

/* run_first_pool with its constants chosen. Under SC the loop's stack is
 * small (tasklets go aside) unless ULTs have stacks of ABT_SCHED_STACKSIZE
 * or more; under other techniques, only after auto left SC, or while the
 * shortcuts are off. */
static inline __attribute__((always_inline)) bool
run_first_pool_here(bb_xstream *es, bb_sched *s, bb_pool *pool, bool private_fifo)
{
    if (sched_stack_lendable(es, es->current))
        return es->sched_stack_small ? run_first_pool(es, s, pool, private_fifo, true, true)
                                     : run_first_pool(es, s, pool, private_fifo, true, false);
    if (tasklets_go_aside(es, es->current))
        return run_first_pool(es, s, pool, private_fifo, false, true);
    return run_first_pool(es, s, pool, private_fifo, false, false);
}

bool bb_unit_run_fifo(bb_sched *s, bb_pool *pool)
{
    return run_first_pool_here(bb_self_xstream(), s, pool, true);
}

/* The unit a direct yield popped from `pool` and handed to `s`, whose pass
 * it ended (hotpath.c), runs first in the next pass: one round. */
static __attribute__((noinline)) bool run_handed(bb_xstream *es, bb_sched *s, bb_pool *pool)
{
    bb_xstream_run_unit(es, bb_sched_take_handed(s), pool);
    s->rounds_left--; /* at least 1 before: a new pass */
    return true;
}

bool bb_unit_run_popped(bb_sched *s, bb_pool *pool)
{
    bb_xstream *es = bb_self_xstream();
    if (__builtin_expect(s->handed != NULL, 0))
        return run_handed(es, s, pool);
    return run_first_pool_here(es, s, pool, false);
}

/* ---- yield, yield_to, suspend, block, exit -------------------------------- */

void bb_ult_yield(bb_unit *self)
{
    switch_to_parent(self, requeue_yielded, self);
}

/* `target`, a ready ULT in no pool, takes the caller's place on this ES as a
 * child of the caller's parent. The caller then switches to it. `target`
 * may still be leaving its last ES (a resume can push a ULT that is
 * suspending): until its context is saved, it reads its own fields
 * (`parent`: where it switches to), so they change only after that. */
static void adopt(bb_unit *self, bb_unit *target)
{
    bb_xstream *es = bb_self_xstream();
    bb_unit_wait_until_saved(target);
    BB_TOOL_EVENT(target, ABT_TOOL_EVENT_THREAD_RUN, NULL, self, self->parent, 0, NULL);
    target->parent = self->parent;
    bb_store_relaxed(&target->xstream, es);
    bb_store_relaxed(&target->state, (uint32_t)ABT_THREAD_STATE_RUNNING);
    bb_store_relaxed(&es->current, target);
}

/* `target` has a request, served now: a cancel ends it, a migration moves
 * it. Returns whether it may still run here. */
static bool serve_target_requests(bb_unit *target)
{
    bb_unit_wait_until_saved(target); /* before a request may end it */
    return !has_requests(target) || serve_requests(target);
}

/* Give the ES to `target`; `then(self)` runs once the caller is saved. A
 * target whose request ended or moved it is not run: the caller leaves to
 * its parent instead, as a plain yield (or suspend) does. */
static void hand_over(bb_unit *self, bb_unit *target, bb_ctx_fn then)
{
    if (__builtin_expect(has_requests(target), 0) && !serve_target_requests(target)) {
        switch_to_parent(self, then, self);
        return;
    }
    adopt(self, target);
    bb_switch(self, target, then, self);
}

int bb_ult_yield_to(bb_unit *self, bb_unit *target)
{
    bb_pool *pool = bb_load_relaxed(&target->pool); /* it may be moving elsewhere */
    if (!bb_pool_removable_here(pool) || pool->ops->remove(pool, target) != ABT_SUCCESS)
        return ABT_ERR_THREAD; /* not waiting in a pool we may take it from */
    hand_over(self, target, requeue_yielded_to);
    return ABT_SUCCESS;
}

void bb_ult_yield_to_unpooled(bb_unit *self, bb_unit *target)
{
    hand_over(self, target, requeue_yielded_to);
}

void bb_ult_resume_yield_to(bb_unit *self, bb_unit *target)
{
    hand_over(self, target, requeue_resume_yielded_to);
}

/* `by_user`: a suspension ABT_thread_resume may end (it is counted as a
 * blocked unit of its pool); otherwise the runtime itself resumes it. */
static void prepare_suspend(bb_unit *self, bool by_user)
{
    BB_TOOL_EVENT(self, ABT_TOOL_EVENT_THREAD_SUSPEND, self->pool, NULL, self->parent,
                  by_user ? ABT_SYNC_EVENT_TYPE_USER : ABT_SYNC_EVENT_TYPE_OTHER, NULL);
    self->wait_target = NULL;
    if (by_user) {
        bb_unit_count_blocked(self);
        bb_store_relaxed(&self->resumable, (uint8_t)BB_SUSPENDING); /* seen with BLOCKED */
    } else {
        self->blocked_in = NULL;
    }
    bb_store_relaxed(&self->switching, 1u);
    bb_store_release(&self->state, (uint32_t)ABT_THREAD_STATE_BLOCKED);
    if (by_user) /* only now may a resume take it: its state no longer changes */
        bb_store_release(&self->resumable, (uint8_t)BB_RESUMABLE);
}

void bb_ult_suspend_to(bb_unit *self, bb_unit *target)
{
    prepare_suspend(self, true);
    hand_over(self, target, publish_suspended);
}

void bb_ult_suspend(bb_unit *self)
{
    prepare_suspend(self, true);
    switch_to_parent(self, publish_suspended, self);
}

/* Suspend, but not as a blocked unit of its pool: the runtime itself
 * resumes it, and its pool's scheduler must not wait for it. */
void bb_ult_park(bb_unit *self)
{
    prepare_suspend(self, false);
    switch_to_parent(self, publish_suspended, self);
}

typedef struct releasing {
    bb_spinlock *lock;
    bb_wait_node *wake;
} releasing;

/* On the blocked ULT's stack, `r` is gone once the unlock lets a waker
 * resume it: read it first. */
static void release_spinlock_then_wake(void *arg)
{
    const releasing *r = arg;
    bb_wait_node *wake = r->wake;
    bb_spin_unlock(r->lock);
    bb_wait_wake_list(wake);
}

void bb_ult_block_releasing(bb_unit *self, const bb_wait_node *wait_on, bb_spinlock *lock,
                            bb_wait_node *wake)
{
    BB_TOOL_EVENT(self, ABT_TOOL_EVENT_THREAD_SUSPEND, self->pool, NULL, self->parent,
                  wait_on->sync_type, wait_on->sync_obj);
    self->wait_target = wait_on;
    bb_unit_count_blocked(self);
    bb_store_release(&self->state, (uint32_t)ABT_THREAD_STATE_BLOCKED);
    releasing r = {.lock = lock, .wake = wake};
    switch_to_parent(self, release_spinlock_then_wake, &r);
    self->wait_target = NULL;
}

void bb_ult_block_on_join(bb_unit *self, bb_unit *target)
{
    BB_TOOL_EVENT(self, ABT_TOOL_EVENT_THREAD_SUSPEND, self->pool, NULL, self->parent,
                  ABT_SYNC_EVENT_TYPE_THREAD_JOIN, target);
    self->wait_target = target;
    bb_unit_count_blocked(self);
    join_wait j = {.self = self};
    switch_to_parent(self, register_joiner, &j);
}

_Static_assert(BB_ADAPT_WINDOW == 256, "count_end finds a window's end by a byte's wrap");

/* A ULT ends on `es`; it deviated if its context was ever saved. Counted
 * for the share ABT_info_print_xstream shows and for auto's choice; one
 * writer, the ES (others only peek). */
static inline void count_end(bb_xstream *es, bool deviated)
{
    if (deviated)
        bb_owned_add(&es->ults_deviated, 1);
    if (__builtin_expect(bb_owned_inc_wraps_byte(&es->ults_ended), 0) && es->adaptive)
        bb_technique_adapt(es); /* wherever ULTs run: scheduler or join bypass */
}

/* A finished ULT hands its ES back to its parent, saving nothing; `then`
 * terminates it there. */
static inline __attribute__((always_inline, noreturn)) void leave_for_good(bb_unit *self,
                                                                          bb_ctx_fn then)
{
    bb_xstream *es = bb_self_xstream();
    bb_unit *parent = self->parent;
    bb_store_relaxed(&es->current, parent);
    bb_switch_exit(self, parent, then, self);
}

void bb_ult_exit(bb_unit *self)
{
    count_end(bb_self_xstream(), true); /* see bb_ult_exit_to */
    leave_for_good(self, finish_exited);
}

/* bb_ult_exit_to, with the end counted already. */
static __attribute__((noreturn)) void exit_to(bb_unit *self, bb_unit *target)
{
    if (__builtin_expect(has_requests(target), 0) && !serve_target_requests(target))
        leave_for_good(self, finish_exited); /* as ABT_thread_exit */
    adopt(self, target);
    bb_switch_exit(self, target, finish_exited, self);
}

/* A ULT that exits before its function returns counts as ended, and as
 * deviated: it leaves by a switch, never by a return (under SC its
 * scheduler restarts), so auto must see it as such. */
void bb_ult_exit_to(bb_unit *self, bb_unit *target)
{
    count_end(bb_self_xstream(), true);
    exit_to(self, target);
}

static void finish_cancelled(void *arg)
{
    bb_unit_terminate(arg);
}

/* A request that came after the unit was taken out of its pool to run (a
 * chain of join_many waits for its turn out of any pool): a cancel ends it
 * before it runs anything, a migration happens by a yield (which pushes it
 * where it must go). */
static __attribute__((noinline)) void serve_requests_at_start(bb_unit *self)
{
    uint32_t req = bb_load_relaxed(&self->requests);
    /* A tool that hears RUN has heard it for this start already
     * (announce_run, adopt: a cancel that came after the checks before
     * them, e.g. from the RUN callback itself). Ending the unit now would
     * follow that RUN with a CANCEL and no FINISH, which a tool takes for a
     * run that never ends. So the unit runs, as in Argobots, which looks
     * for a cancel only before it reports RUN, and its next scheduling
     * point serves the cancel. (The chains of join_many, which report no
     * RUN, exist only while no tool is registered.) */
    if ((req & BB_REQ_CANCEL) && !bb_tool_wants(ABT_TOOL_EVENT_THREAD_RUN)) {
        BB_TOOL_EVENT(self, ABT_TOOL_EVENT_THREAD_CANCEL, NULL, NULL, NULL, 0, NULL);
        leave_for_good(self, finish_cancelled);
    }
    if (req & BB_REQ_MIGRATE)
        bb_ult_yield(self);
}

/* ---- starting and finishing a ULT (the steps of bb_technique.h) ----------- */

/* First code of every ULT, on its own stack (see bb_switch). */
void bb_ult_start(void *arg)
{
    bb_unit *self = arg;
    if (__builtin_expect(bb_unit_has_requests(self), 0))
        serve_requests_at_start(self);
    self->func(bb_unit_start_arg(self));
    count_end(bb_self_xstream(), self->ctx != NULL);
    leave_for_good(self, finish_exited);
}

/* A ULT that its parent called (RETURN) finished after it deviated: its
 * context was saved, its parent's call is over, and it ends the general way.
 * Out of line, to keep the common return free of this path's frame. */
static __attribute__((noinline, noreturn)) void end_deviated(bb_unit *self)
{
    count_end(bb_self_xstream(), true);
    leave_for_good(self, finish_exited);
}

/* A ULT that `parent` called returned without deviating, still the current
 * unit of `es`: the parent takes the ES back and terminates it. */
static inline void end_returned(bb_xstream *es, bb_unit *parent, bb_unit *u)
{
    count_end(es, false);
    bb_store_relaxed(&es->current, parent);
    bb_unit_terminate(u);
}

/* SCHED_STACK (SC): the ES's restartable main scheduler `sched` calls a
 * ULT `u` that never ran and has no stack yet as a tasklet, on its own
 * stack, after lending that stack to `u`. If `u` deviates first, it keeps
 * the stack: the switch to `sched`, whose context is NULL and stack gone,
 * lends the scheduler a new one and restarts it there (bb_switch_to_fresh).
 * Only a stack from the cache of default-size ULT stacks changes hands. With
 * a tool watching switches no ULT returns (BB_SHORTCUT_RETURN is off), and
 * none runs so. Whether `sched` may lend its stack: */
static inline bool sched_stack_lendable(const bb_xstream *es, const bb_unit *sched)
{
    return (es->ult_steps & BB_STEP_SCHED_STACK) && sched == es->restartable &&
           sched->lent_stack && bb_shortcut_on(BB_SHORTCUT_RETURN);
}

/* A ULT without a stack or a context is a lazy one that never ran (the
 * primary ULT has no stack of its own, but a context once it left), so of
 * the default size, which a lent stack has too. */
static inline bool never_ran_lazy(const bb_unit *u)
{
    return !u->stack && !u->ctx;
}

/* From here to end_lending the scheduler `sched`, running, lends its
 * stack to each SC ULT it calls, and has neither a stack nor a context of
 * its own: a switch to it, after a deviation of the ULT that has the stack,
 * restarts it on a new one. A ULT that is not SC may restart it too, on its
 * own stack (SCHED_RESTART): run_unit ends the loan around it. Nothing else
 * uses these fields of a running scheduler; ABT_info_print_* shows it
 * without a stack meanwhile (the SC ULT that runs has it). */
static inline sched_loan begin_lending(bb_unit *sched)
{
    sched_loan loan = {.stack = sched->stack, .flags = sched->lent_stack};
    sched->ctx = NULL;
    sched->stack = NULL;
    return loan;
}

static inline void end_lending(bb_unit *sched, const sched_loan *loan)
{
    sched->stack = loan->stack;
}

/* The whole run of an SC ULT, in one frame: it is the common case of the
 * default technique, and costs a tasklet's run plus the stack handover.
 * run_unit found no request of `u`; one that comes later is served at u's
 * next scheduling point, not here (unlike bb_ult_start). */
static inline __attribute__((always_inline)) void
run_on_sched_stack(bb_xstream *es, bb_unit *sched, bb_unit *u, const sched_loan *loan)
{
    bb_store_relaxed(&u->stack, loan->stack); /* ABT_thread_get_stack may look */
    u->lent_stack = loan->flags;
    u->func(bb_unit_start_arg(u));
    if (u->ctx) /* deviated: this is its own stack now, maybe on another ES */
        end_deviated(u);
    /* A ULT's floating-point control stays its own, as after a switch: the
     * scheduler's is always the one it starts with (xstream.c). */
    bb_fpu_control_load(&es->sched_fpu);
    bb_store_relaxed(&u->stack, NULL);
    u->lent_stack = 0; /* the scheduler's lent_stack was left as it was */
    count_end(es, false); /* end_returned, but the stack is back already */
    bb_store_relaxed(&es->current, sched);
    bb_unit_end(u);
}

/* SCHED_RESTART: the restartable scheduler `sched` calls `u` without saving
 * its context; a ULT that deviates switches to `sched`, whose context is
 * NULL: that starts the scheduler afresh (bb_switch), on its own stack, and
 * the frames it had there are dropped. A `u` that returns did not deviate. */
static void call_unsaved(bb_xstream *es, bb_unit *sched, bb_unit *u)
{
    sched->ctx = NULL;
    bb_ult_ensure_stack_on(es, u);
    bb_ctx_run_on(u->stack, u->stacksize, bb_ult_called, u);
    end_returned(es, sched, u);
}

/* bb_ult_begin with the RETURN step. */
__attribute__((noinline)) void bb_ult_call(bb_xstream *es, bb_unit *parent, bb_unit *u)
{
    if ((es->ult_steps & BB_STEP_SCHED_RESTART) && parent == es->restartable) {
        call_unsaved(es, parent, u);
        return;
    }
    bb_ult_ensure_stack_on(es, u);
    void *parent_ctx = parent->ctx;
    bb_ctx_call(&parent->ctx, u->stack, u->stacksize, bb_ult_called, u);
    if (bb_load_relaxed(&es->current) == u) {
        parent->ctx = parent_ctx;
        end_returned(es, parent, u);
    }
}

/* First code of a ULT that its parent called (bb_ult_begin, RETURN step).
 * Its context is saved only when it leaves its stack (yield, block, a
 * joinee it runs itself that does not return to it, ...): if that never
 * happened, the parent's saved context is still where it called from, and
 * a return gets there. If it did, that context has been resumed since, and
 * the ULT ends the general way, with a switch to whoever is its parent
 * now. */
void bb_ult_called(void *arg)
{
    bb_unit *self = arg;
    if (__builtin_expect(bb_unit_has_requests(self), 0))
        serve_requests_at_start(self);
    self->func(bb_unit_start_arg(self));
    if (self->ctx)
        end_deviated(self);
    /* else the caller counts it */
}

/* ---- child-first: ABT_thread_create_to and ABT_thread_revive_to ---------- */

/* The caller (the creator) runs the new ULT (the child) at once on its ES,
 * and goes back to its own pool, once its context is saved, as a
 * continuation that another ES may take meanwhile. When the child ends, it
 * takes the creator back out of that pool if it is still where it was put
 * (bb_pool_ops.take_back) and resumes it at once, so that without a
 * deviation the two run in the order of a function call; otherwise the
 * child ends as any ULT does, and the creator runs when its turn comes.
 *
 * While in its pool, the creator's wait_target names the child: a
 * take-back checks it, so that it never takes another unit made since in
 * the creator's memory, and the creator clears it when it runs again.
 *
 * The steps of the ES's technique apply, which gives the paper's
 * child-first techniques: with RETURN, the creator calls the child on the
 * child's stack, and a child that neither deviated nor lost its creator
 * returns to it (C-RoC); otherwise the creator is resumed by a switch
 * (C-Full). With LAZY_STACK the child has a stack only while it runs (the
 * paper's "eager stack release", the -E techniques). */

typedef struct {
    bb_unit *creator;
    bb_unit *child;
    bb_pool_ctx push_ctx; /* ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO or _REVIVE_TO */
    bool called;          /* RETURN: the child may return to the creator */
} child_first_start;

/* The creator goes to its pool; returns that pool. */
static bb_pool *expose_creator(bb_unit *creator, bb_pool_ctx push_ctx)
{
    BB_TOOL_EVENT(creator, ABT_TOOL_EVENT_THREAD_YIELD, creator->pool, NULL, creator->parent,
                  ABT_SYNC_EVENT_TYPE_USER, NULL);
    bb_store_relaxed(&creator->state, (uint32_t)ABT_THREAD_STATE_READY);
    return push_ready(creator, push_ctx);
}

/* `pool`, where the creator went, is looked into only once it is known to
 * be one of ours, hence alive: the creator may have moved on to another ES's
 * pool, ended there and that ES been freed with the pool meanwhile. */
static bool take_back(bb_xstream *es, bb_pool *pool, bb_unit *creator, const bb_unit *child)
{
    return bb_sched_has_pool(es->main_sched, pool) && pool->ops->take_back &&
           pool->ops->take_back(pool, creator, child);
}

/* First code of a child, on its stack. `arg` lives on the creator's stack,
 * which may run again as soon as the creator is in its pool. */
static void run_child_first(void *arg)
{
    const child_first_start *start = arg;
    bb_unit *self = start->child, *creator = start->creator;
    bool called = start->called;
    self->ctx = NULL; /* nothing saved yet (one made in advance for the tools) */
    bb_pool *pool = expose_creator(creator, start->push_ctx);
    if (__builtin_expect(bb_unit_has_requests(self), 0))
        serve_requests_at_start(self);
    self->func(bb_unit_start_arg(self));
    bb_xstream *es = bb_self_xstream();
    bool resumes_creator = take_back(es, pool, creator, self);
    count_end(es, self->ctx != NULL || !resumes_creator);
    if (!resumes_creator)
        leave_for_good(self, finish_exited);
    if (called && !self->ctx)
        return; /* C-RoC: the creator finishes it (bb_ult_run_child_first) */
    exit_to(self, creator);
}

void bb_ult_run_child_first(bb_unit *self, bb_unit *child, bb_pool_ctx push_ctx)
{
    bb_xstream *es = bb_self_xstream();
    child_first_start start = {self, child, push_ctx, false};
    self->wait_target = child;
    adopt(self, child);
    bb_ult_ensure_stack_on(es, child);
    if (__builtin_expect(bb_fiber_tools.any, 0)) {
        child->ctx = bb_unit_fresh_context_at(child, run_child_first, &start);
        bb_fibers_jump(self, child, NULL, NULL);
    } else if ((es->ult_steps & BB_STEP_RETURN) && bb_shortcut_on(BB_SHORTCUT_RETURN)) {
        start.called = true;
        void *self_ctx = self->ctx;
        bb_ctx_call(&self->ctx, child->stack, child->stacksize, run_child_first, &start);
        es = bb_self_xstream(); /* taken by another ES, the creator may resume there */
        if (bb_load_relaxed(&es->current) == child) { /* returned: taken back */
            self->ctx = self_ctx; /* it never left this ES (see bb_ult_call) */
            bb_store_relaxed(&self->state, (uint32_t)ABT_THREAD_STATE_RUNNING);
            bb_store_relaxed(&es->current, self);
            bb_unit_terminate(child);
        }
    } else {
        bb_ctx_start(&self->ctx, child->stack, child->stacksize, run_child_first, &start);
    }
    self->wait_target = NULL;
}

/* ---- lazy stacks (LAZY_STACK) --------------------------------------------- */

void bb_ult_return_stack(bb_unit *u)
{
    if (__builtin_expect(bb_fiber_tools.any, 0))
        bb_fibers_release(u); /* the tools forget the stack with the unit */
    bb_mem_stack_free(bb_self_mem_cache(), u->stack, u->stacksize, u->lent_stack);
    bb_store_relaxed(&u->stack, NULL);
    u->lent_stack = 0;
}

static __attribute__((noreturn)) void out_of_stacks(const bb_unit *u)
{
    bb_fprintf(stderr,
               "bobbin: no memory for the stack of %s (ABT_THREAD_TECHNIQUE with a lazy "
               "stack); aborting\n",
               (u->flags & BB_UNIT_SCHED) ? "a scheduler at its start or restart"
                                          : "a ULT at its first run");
    abort();
}

/* LAZY_STACK: a default-size stack from the caller's ES. Nobody is there to
 * take an error: without memory for a stack the process ends with a
 * message (an eager technique reports ABT_ERR_MEM at creation instead). */
void bb_ult_lend_stack(bb_unit *u)
{
    bb_mem_cache *cache = bb_self_mem_cache();
    uint32_t flags;
    void *stack = cache ? bb_mem_stack_cache_pop(cache, &flags) : NULL; /* inline first */
    if (!stack && bb_mem_stack_alloc(cache, u->stacksize, &stack, &flags) != ABT_SUCCESS)
        out_of_stacks(u);
    bb_store_relaxed(&u->stack, stack); /* ABT_thread_get_stack may look meanwhile */
    u->lent_stack = flags;
}

/* ---- a blocked unit becomes ready ---------------------------------------- */

/* The pool that counted `u` as blocked lets go of it. A scheduler of that
 * pool may be asleep waiting for its count to reach zero (FINISH): wake it so
 * that it looks again if `u` went elsewhere, or if this was the last blocked
 * unit (one spurious wake when the pool is not empty is harmless). The push
 * of `u` may have woken it already, but
 * before the count dropped: it may have run `u`, found the count not yet zero
 * and gone back to sleep. (A non-empty pool woke somebody with its push.) */
void bb_unit_uncount_blocked(bb_pool *was, bb_pool *now)
{
    /* Under the pool's lock: once the count drops, the pool may be destroyed
     * (its last blocked unit gone, its scheduler finished), and
     * bb_pool_destroy takes this lock before freeing it. */
    bb_pool_sleeper *s = NULL;
    bb_spin_lock(&was->lock);
    long left = __atomic_sub_fetch(&was->num_blocked, 1, __ATOMIC_ACQ_REL);
    bool may_finish = was != now || left == 0; /* no user callback under the lock */
    if (may_finish && bb_pool_can(was, BB_POOL_WAKES_SLEEPERS))
        s = bb_pool_take_drain_sleeper_locked(was); /* for a scheduler, not a popper */
    bb_spin_unlock(&was->lock);
    if (s)
        bb_pool_ring_sleeper(s);
}

/* The blocked count drops only after the push, so that a scheduler never
 * sees the unit neither blocked nor queued and stops too early. Back into
 * the shared built-in pool it blocked in, both happen under one hold of the
 * pool's lock (push_resumed). A move pending takes it elsewhere, and its
 * pool drops the count first (bb_unit_forward). */
static void make_ready_here(bb_unit *u)
{
    bb_pool *was = u->blocked_in;
    u->blocked_in = NULL;
    bb_store_relaxed(&u->state, (uint32_t)ABT_THREAD_STATE_READY);
    if (was && was == u->pool && bb_unit_has_move_pending(u)) {
        bb_unit_forward(u, was, ABT_POOL_CONTEXT_OP_THREAD_RESUME, true);
        return;
    }
    if (was && was == u->pool && was->ops->push_resumed) {
        was->ops->push_resumed(was, u, ABT_POOL_CONTEXT_OP_THREAD_RESUME);
        return;
    }
    bb_pool *now = push_ready(u, ABT_POOL_CONTEXT_OP_THREAD_RESUME);
    if (was)
        bb_unit_uncount_blocked(was, now);
}

/* ---- wake-ups into a private pool from elsewhere ----------------------------
 *
 * Only the ES that pops a private pool may touch it (it takes no lock). A
 * ULT of such a pool that blocked is woken by whoever ends its wait: maybe
 * another ES or an external thread. That waker does not push it into the
 * list. If the pool has a home (the ES whose main scheduler holds it), the
 * ULT goes onto the pool's incoming stack, which the home takes in at its
 * next event check; a scheduler with a private pool never sleeps until a
 * push (at most for ABT_SCHED_SLEEP_NSEC, a timed sleep), so none needs a
 * ring. Otherwise (a stacked scheduler's private pool) it goes to
 * the ES it last ran on, which popped it, through that ES's inbox
 * (`remote_ready`, a stack linked through bb_unit.next), and that ES makes
 * it ready at its schedulers' next event check
 * (bb_xstream_take_remote_ready). Until then it still counts as blocked, so
 * no scheduler of its pool stops meanwhile. An ES whose scheduler no longer
 * runs closes its inbox (BB_INBOX_CLOSED): nobody pops its pools then, and
 * a waker pushes itself. */

static bool wakes_from_elsewhere(bb_unit *u)
{
    return u->pool->access == ABT_POOL_ACCESS_PRIV &&
           bb_self_xstream() != bb_load_relaxed(&u->xstream);
}

/* Returns false if the inbox of `es` is closed. The ES may be asleep: its
 * ULT went there by a hand-over (a *_to call, ABT_self_schedule) from a
 * private pool its own scheduler does not hold, and a BASIC_WAIT scheduler
 * whose pools are all shared sleeps until rung. Without the ring the ULT
 * would stay in the inbox, never ready, until that ES got other work. */
static bool hand_to_es(bb_xstream *es, bb_unit *u)
{
    bb_unit *head = bb_load_relaxed(&es->remote_ready);
    do {
        if (head == BB_INBOX_CLOSED)
            return false;
        u->next = head;
    } while (!bb_cas_acq_rel(&es->remote_ready, &head, u));
    bb_xstream_ring_main_sched(es); /* after the push: see sleep_until_work */
    return true;
}

static void make_ready_all(bb_unit *list)
{
    while (list) {
        bb_unit *u = list;
        list = u->next;
        u->next = NULL;
        make_ready_here(u);
    }
}

/* On `es` only (which alone opens and closes its inbox). */
void bb_xstream_take_remote_ready(bb_xstream *es)
{
    if (bb_load_relaxed(&es->remote_ready) != BB_INBOX_CLOSED)
        make_ready_all(bb_exchange_acq_rel(&es->remote_ready, (bb_unit *)NULL));
}

void bb_xstream_close_inbox(bb_xstream *es)
{
    make_ready_all(bb_exchange_acq_rel(&es->remote_ready, BB_INBOX_CLOSED));
}

void bb_xstream_open_inbox(bb_xstream *es)
{
    bb_store_release(&es->remote_ready, (bb_unit *)NULL);
}

/* The ES `u` last ran on may have been freed since: its scheduler stopped
 * with `u` blocked (ABT_xstream_cancel, an exit) and ABT_xstream_free
 * followed. So that ES is not read. A pool with a home needs none:
 * push_ready sends `u` to that home through the pool's incoming stack, and
 * the pool lives as long as it counts `u`. Otherwise the ES is looked for
 * in the table of ESs, whose lock keeps it from being freed while `u` is
 * handed to it; gone, nobody pops the pool there, and the waker pushes. */
static bool hand_to_last_es(bb_unit *u)
{
    if (bb_load_relaxed(&u->pool->home))
        return false;
    pthread_mutex_lock(&bb_rt.lock);
    bb_xstream *es = bb_load_relaxed(&u->xstream);
    bool handed = bb_xstream_table_rank_of_locked(es) >= 0 && hand_to_es(es, u);
    pthread_mutex_unlock(&bb_rt.lock);
    return handed;
}

/* A blocked ULT becomes ready: back into its pool (or a migration target). */
void bb_unit_make_ready(bb_unit *u)
{
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_RESUME, u->pool, bb_self_unit(), NULL, 0, NULL);
    if (wakes_from_elsewhere(u) && hand_to_last_es(u))
        return;
    make_ready_here(u);
}
