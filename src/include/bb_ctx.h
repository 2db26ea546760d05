/*
 * Machine contexts: the only code that knows about registers.
 *
 * A context is an opaque pointer (on x86-64, the stack pointer at which the
 * context stopped). Eight primitives, implemented per architecture in
 * src/arch/<arch>/:
 *
 *  - bb_ctx_make: prepare a fresh context on a stack; the first switch to it
 *    calls entry(arg), which must never return.
 *  - bb_ctx_jump: save the current context into *save and switch to target.
 *  - bb_ctx_swap: bb_ctx_jump without a callback, a few instructions less:
 *    any switch to a saved context that needs none (bb_switch; most often
 *    a scheduler resuming a ULT). It returns 0 when the saved context
 *    resumes, so that a yield may end by a tail call of it and return that:
 *    then nothing of the yield's own frame remains to be resumed.
 *  - bb_ctx_start: save the current context into *save and call entry(arg),
 *    which must never return, on a fresh stack: bb_ctx_make + bb_ctx_jump
 *    without the frame written on the new stack only to be read back.
 *  - bb_ctx_call: bb_ctx_start, except that entry(arg) may return, and then
 *    bb_ctx_call returns too, as from a function call. Whether entry
 *    returned or the saved context was resumed by a switch, the caller
 *    continues the same way; it tells the two apart by what entry left.
 *  - bb_ctx_run_on: call entry(arg), which may return, on a fresh stack,
 *    saving no context: the caller continues only if entry returns (as
 *    from a function call, with its FPU control state restored).
 *  - bb_ctx_exit_start: leave the current context for good and call
 *    entry(entry_arg), which must never return, on a fresh stack, after
 *    fn(arg) (may be NULL): bb_ctx_make + bb_ctx_exit likewise.
 *  - bb_ctx_exit: switch to target without saving anything (the caller is
 *    finished and its stack may be reused).
 *
 * bb_ctx_jump and bb_ctx_exit take a callback `fn(arg)` (may be NULL) that runs on the
 * target's stack *after* the old context is completely saved and *before* the
 * target resumes. That is where work belongs that must not happen while still
 * standing on the old stack: requeue a yielded ULT, publish a blocked one,
 * release a finished one. See docs/ARCHITECTURE.md, "Switching".
 */
#ifndef BB_CTX_H
#define BB_CTX_H

#include <stddef.h>

typedef void (*bb_ctx_fn)(void *arg);

void *bb_ctx_make(void *stack_base, size_t stack_size, bb_ctx_fn entry, void *arg);
void bb_ctx_jump(void **save, void *target, bb_ctx_fn fn, void *arg);
int bb_ctx_swap(void **save, void *target);
void bb_ctx_start(void **save, void *stack_base, size_t stack_size, bb_ctx_fn entry, void *arg);
void bb_ctx_call(void **save, void *stack_base, size_t stack_size, bb_ctx_fn entry, void *arg);
void bb_ctx_run_on(void *stack_base, size_t stack_size, bb_ctx_fn entry, void *arg);
__attribute__((noreturn)) void bb_ctx_exit(void *target, bb_ctx_fn fn, void *arg);
__attribute__((noreturn)) void bb_ctx_exit_start(void *stack_base, size_t stack_size, bb_ctx_fn fn,
                                                 void *arg, bb_ctx_fn entry, void *entry_arg);

#endif
