/*
 * Switching between two work units' contexts: bb_ctx_jump/bb_ctx_exit plus
 * what the tools watching the process must know (bb_sanitizer.h). With no
 * such tool this is the bare switch behind one test; with one, the switch
 * goes through src/unit/fibers.c.
 *
 * A switch a tool could see goes through bb_switch or bb_switch_exit. The
 * direct bb_ctx_* calls (bb_ult_begin's, bb_ult_call's, child-first's,
 * bb_switch_last, the big-stack runs of switch.c and xstream.c) are reached
 * only while no such tool is active: behind a bb_fiber_tools.any test, or a
 * shortcut or small scheduler stack that is off while one is. A new call
 * site must do the same.
 */
#ifndef BB_SWITCH_H
#define BB_SWITCH_H

#include "bb_ctx.h"
#include "bb_runtime.h"
#include "bb_sanitizer.h"
#include "bb_technique.h"
#include "bb_unit.h"
#include "bb_xstream.h"

void bb_fibers_jump(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg);
__attribute__((noreturn)) void bb_fibers_exit(bb_unit *from, bb_unit *to, bb_ctx_fn fn,
                                              void *arg);
/* `u`'s memory is about to be reused or returned: the tools forget it. */
void bb_fibers_release(bb_unit *u);

/* bb_switch to a ULT that never ran, with a callback or without a stack yet
 * (rare: out of line). */
void bb_switch_to_fresh(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg);
/* bb_switch_last to a ULT that never ran (out of line). */
int bb_switch_to_new(bb_unit *from, bb_unit *to);

/* First code of every ULT, on its own stack (switch.c): func(arg), then exit. */
__attribute__((noreturn)) void bb_ult_start(void *arg);
/* The same for a ULT whose parent called it (bb_ult_begin): returns to the
 * parent if it did not deviate. */
void bb_ult_called(void *arg);

/* Whether new ULTs of `es` get their stack at their first run (the
 * LAZY_STACK step): then they come from the cache of bare descriptors. */
static inline bool bb_xstream_lends_stacks(const bb_xstream *es)
{
    return (es->ult_steps & BB_STEP_LAZY_STACK) != 0;
}

/* A ULT with a lazy stack gets one from the caller's ES before its first
 * run (switch.c). */
void bb_ult_lend_stack(bb_unit *u);

static inline void bb_ult_ensure_stack(bb_unit *u)
{
    if (!u->stack)
        bb_ult_lend_stack(u);
}

/* The same on the caller's ES `es`, with its cache's common case inline:
 * for the scheduler and the join bypass, where a lazy ULT starts (passing
 * the cache to bb_ult_lend_stack instead costs every eager start 2). */
static inline void bb_ult_ensure_stack_on(bb_xstream *es, bb_unit *u)
{
    if (__builtin_expect(u->stack != NULL, 1))
        return;
    bb_mem_cache *c = &es->cache;
    uint32_t flags;
    void *stack = bb_mem_stack_cache_pop(c, &flags);
    if (!stack) {
        bb_ult_lend_stack(u);
        return;
    }
    bb_store_relaxed(&u->stack, stack); /* ABT_thread_get_stack may look meanwhile */
    u->lent_stack = flags;
}

/* The lent stack goes back to the caller's ES as the ULT ends (from the
 * next context: nothing runs on it any more; unit.c, bb_unit_terminate).
 * The common case inline; false if it is not that (a full cache, a tool
 * watching stacks, an external thread): then bb_ult_return_stack. */
static inline bool bb_ult_try_return_stack(bb_unit *u)
{
    bb_mem_cache *cache = bb_self_mem_cache();
    if (__builtin_expect(bb_fiber_tools.any, 0) || !cache ||
        !bb_mem_stack_cache_push(cache, u->stack, u->lent_stack))
        return false;
    bb_store_relaxed(&u->stack, NULL);
    u->lent_stack = 0;
    return true;
}

void bb_ult_return_stack(bb_unit *u);

/* A fresh context for ULT `u` on its stack, which starts in bb_ult_start.
 * A new ULT has none (ctx NULL: bb_switch starts it on its stack); this is
 * for the switches that need one made in advance. */
static inline void *bb_unit_fresh_context_at(bb_unit *u, bb_ctx_fn entry, void *arg)
{
    bb_ult_ensure_stack(u);
    bb_sanitizer_fresh_stack(u->stack, u->stacksize);
    return bb_ctx_make(u->stack, u->stacksize, entry, arg);
}

static inline void *bb_unit_fresh_context(bb_unit *u)
{
    return bb_unit_fresh_context_at(u, bb_ult_start, u);
}

/* Save `from`'s context and run `to`; `fn(arg)` first runs on `to`'s stack.
 * A ULT that never ran (ctx NULL) starts on its stack: at once when there is
 * no callback (the common case), through a context made now otherwise. */
static inline void bb_switch(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg)
{
    if (__builtin_expect(bb_fiber_tools.any, 0))
        bb_fibers_jump(from, to, fn, arg);
    else if (to->ctx && !fn) /* `fn` is a constant at most call sites */
        bb_ctx_swap(&from->ctx, to->ctx);
    else if (to->ctx)
        bb_ctx_jump(&from->ctx, to->ctx, fn, arg);
    else if (!fn && to->stack)
        bb_ctx_start(&from->ctx, to->stack, to->stacksize, bb_ult_start, to);
    else /* a callback, or a lazy stack to lend first: rare, out of line */
        bb_switch_to_fresh(from, to, fn, arg);
}

/* bb_switch without a callback, for a caller that returns at once what this
 * returns: ABT_SUCCESS, once `from` runs again. In the common case a tail
 * call of the swap, so that the caller builds no frame; when `from`
 * resumes, the swap returns straight into the caller's caller. Only while
 * no tool watches switches (BB_SHORTCUT_YIELD_SWAP): nothing tells them. */
static inline int bb_switch_last(bb_unit *from, bb_unit *to)
{
    if (to->ctx)
        return bb_ctx_swap(&from->ctx, to->ctx);
    return bb_switch_to_new(from, to);
}

/* The same, but `from` is finished: nothing of it is saved. A ULT that
 * never ran starts on its stack (a chain of join_many, see hotpath.c). */
__attribute__((noreturn, always_inline)) static inline void bb_switch_exit(bb_unit *from,
                                                                           bb_unit *to,
                                                                           bb_ctx_fn fn, void *arg)
{
    if (__builtin_expect(bb_fiber_tools.any, 0))
        bb_fibers_exit(from, to, fn, arg);
    if (to->ctx)
        bb_ctx_exit(to->ctx, fn, arg);
    bb_ult_ensure_stack(to);
    bb_ctx_exit_start(to->stack, to->stacksize, fn, arg, bb_ult_start, to);
}

/* A parent (the scheduler, or a joiner that runs its joinee itself) on
 * `es` starts ULT `u`, which never ran (no context), as its child; returns
 * once `u` has left that context: finished, yielded or blocked. Without the
 * RETURN step the parent saves its context and starts `u` on its stack. With
 * it (bb_technique.h), bb_ult_call calls `u` as a function: on its stack
 * after saving the parent's context (RoC), or, when the parent is the ES's
 * restartable scheduler (SCHED_RESTART), without saving it (SS). (SC does
 * not come here: run_unit calls a never-run lazy ULT on the scheduler's own
 * stack itself, switch.c, run_on_sched_stack.) A `u` that ends without
 * deviating returns there, still the current unit of `es`, and the parent
 * terminates it (whoever else switches to the parent makes the parent
 * current). A plain return leaves the parent's saved context as it was: the
 * parent's own parent still decides by it whether the parent deviated
 * (bb_ult_called). */
void bb_ult_call(bb_xstream *es, bb_unit *parent, bb_unit *u);

static inline void bb_ult_begin(bb_xstream *es, bb_unit *parent, bb_unit *u)
{
    if (__builtin_expect(bb_fiber_tools.any, 0)) {
        bb_fibers_jump(parent, u, NULL, NULL);
        return;
    }
    if ((es->ult_steps & BB_STEP_RETURN) && bb_shortcut_on(BB_SHORTCUT_RETURN)) {
        bb_ult_call(es, parent, u); /* out of line: the caller needs no frame for it */
        return;
    }
    bb_ult_ensure_stack_on(es, u);
    bb_ctx_start(&parent->ctx, u->stack, u->stacksize, bb_ult_start, u);
}

#endif
