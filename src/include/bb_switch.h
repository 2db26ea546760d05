/*
 * Switching between two work units' contexts: bb_ctx_jump/bb_ctx_exit plus
 * what the tools watching the process must know (bb_sanitizer.h). With no
 * such tool this is the bare switch behind one test; with one, the switch
 * goes through src/unit/fibers.c.
 */
#ifndef BB_SWITCH_H
#define BB_SWITCH_H

#include "bb_ctx.h"
#include "bb_sanitizer.h"
#include "bb_unit.h"

void bb_fibers_jump(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg);
__attribute__((noreturn)) void bb_fibers_exit(bb_unit *from, bb_unit *to, bb_ctx_fn fn,
                                              void *arg);
/* `u`'s memory is about to be reused or returned: the tools forget it. */
void bb_fibers_release(bb_unit *u);

/* bb_switch to a ULT that never ran, with a callback (rare: out of line). */
void bb_switch_to_fresh(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg);

/* First code of every ULT, on its own stack (switch.c): func(arg), then exit. */
__attribute__((noreturn)) void bb_ult_start(void *arg);

/* A fresh context for ULT `u` on its stack, which starts in bb_ult_start.
 * A new ULT has none (ctx NULL: bb_switch starts it on its stack); this is
 * for the switches that need one made in advance. */
static inline void *bb_unit_fresh_context(bb_unit *u)
{
    bb_sanitizer_fresh_stack(u->stack, u->stacksize);
    return bb_ctx_make(u->stack, u->stacksize, bb_ult_start, u);
}

/* Save `from`'s context and run `to`; `fn(arg)` first runs on `to`'s stack.
 * A ULT that never ran (ctx NULL) starts on its stack: at once when there is
 * no callback (the common case), through a context made now otherwise. */
static inline void bb_switch(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg)
{
    if (__builtin_expect(bb_fiber_tools.any, 0))
        bb_fibers_jump(from, to, fn, arg);
    else if (to->ctx)
        bb_ctx_jump(&from->ctx, to->ctx, fn, arg);
    else if (!fn)
        bb_ctx_start(&from->ctx, to->stack, to->stacksize, bb_ult_start, to);
    else
        bb_switch_to_fresh(from, to, fn, arg);
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
    bb_ctx_exit_start(to->stack, to->stacksize, fn, arg, bb_ult_start, to);
}

#endif
