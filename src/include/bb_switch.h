/*
 * Switching between two work units' contexts: bb_ctx_jump/bb_ctx_exit plus
 * what sanitizers must know. With AddressSanitizer in the process
 * (bb_asan_fibers, found at run time), each switch announces the stack it
 * moves to and, once there, confirms it, before the switch's callback runs;
 * otherwise this is the bare switch behind one test.
 */
#ifndef BB_SWITCH_H
#define BB_SWITCH_H

#include "bb_ctx.h"
#include "bb_sanitizer.h"
#include "bb_unit.h"

void bb_asan_jump(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg);
__attribute__((noreturn)) void bb_asan_exit(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg);

/* Save `from`'s context and run `to`; `fn(arg)` first runs on `to`'s stack. */
static inline void bb_switch(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg)
{
    if (__builtin_expect(bb_asan_fibers, 0))
        bb_asan_jump(from, to, fn, arg);
    else
        bb_ctx_jump(&from->ctx, to->ctx, fn, arg);
}

/* The same, but `from` is finished: nothing of it is saved. */
__attribute__((noreturn)) static inline void bb_switch_exit(bb_unit *from, bb_unit *to,
                                                            bb_ctx_fn fn, void *arg)
{
    if (__builtin_expect(bb_asan_fibers, 0))
        bb_asan_exit(from, to, fn, arg);
    bb_ctx_exit(to->ctx, fn, arg);
}

#endif
