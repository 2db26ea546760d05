/*
 * Portable context switch on top of ucontext (getcontext/makecontext/
 * swapcontext). Slower than the assembly (swapcontext saves the signal mask
 * with a system call) but runs anywhere glibc does; chosen at build time with
 * -DBOBBIN_CONTEXT=ucontext.
 *
 * The C interface is the one of bb_ctx.h: a context is an opaque pointer, here
 * to a ucontext_t. A context that switches away keeps its ucontext_t in the
 * frame of bb_ctx_jump on its own stack; a fresh context keeps it at the top
 * of its new stack. The "run fn(arg) on top of the target" callback is handed
 * over through a per-OS-thread slot: the switch happens on one OS thread, and
 * whoever resumes (a returning swapcontext or a fresh trampoline) runs it.
 */
#include "bb_ctx.h"

#include <stdint.h>
#include <stdlib.h>
#include <ucontext.h>

struct pending_call {
    void (*fn)(void *);
    void *arg;
};

/* initial-exec: the slot is read right after swapcontext returns, possibly on
 * another OS thread, so its address must never be cached across the switch. */
static __thread struct pending_call pending __attribute__((tls_model("initial-exec")));

struct fresh_ctx {
    ucontext_t uc;
    void (*entry)(void *);
    void *arg;
};

__attribute__((noinline)) static void run_pending(void)
{
    struct pending_call call = pending;
    pending.fn = NULL;
    if (call.fn)
        call.fn(call.arg);
}

/* makecontext passes int arguments only: a pointer goes as two 32-bit
 * halves. Shifted in two steps of 16, so that where a pointer has 32 bits
 * the high half is 0 with no shift by the full width (undefined in C). */
static void trampoline(unsigned int hi, unsigned int lo)
{
    struct fresh_ctx *fresh =
        (struct fresh_ctx *)((((uintptr_t)hi << 16) << 16) | (uintptr_t)lo);
    run_pending();
    fresh->entry(fresh->arg);
    abort(); /* entry must never return */
}

void *bb_ctx_make(void *stack_base, size_t size, void (*entry)(void *), void *arg)
{
    /* The ucontext_t sits at the top of the stack; the usable stack is
     * everything below it. */
    uintptr_t base = (uintptr_t)stack_base;
    uintptr_t top = (base + size - sizeof(struct fresh_ctx)) & ~(uintptr_t)63;
    struct fresh_ctx *fresh = (struct fresh_ctx *)top;
    size_t usable = top - base;

    getcontext(&fresh->uc);
    fresh->uc.uc_stack.ss_sp = (void *)base;
    fresh->uc.uc_stack.ss_size = usable;
    fresh->uc.uc_link = NULL;
    fresh->entry = entry;
    fresh->arg = arg;
    makecontext(&fresh->uc, (void (*)(void))trampoline, 2,
                (unsigned int)((top >> 16) >> 16), (unsigned int)(top & 0xffffffffu));
    return &fresh->uc;
}

void bb_ctx_jump(void **save, void *target, void (*fn)(void *), void *arg)
{
    ucontext_t here;
    *save = &here;
    pending.fn = fn;
    pending.arg = arg;
    swapcontext(&here, (ucontext_t *)target);
    run_pending();
}

int bb_ctx_swap(void **save, void *target)
{
    bb_ctx_jump(save, target, NULL, NULL);
    return 0;
}

void bb_ctx_start(void **save, void *stack_base, size_t size, void (*entry)(void *), void *arg)
{
    bb_ctx_jump(save, bb_ctx_make(stack_base, size, entry, arg), NULL, NULL);
}

/* bb_ctx_call: entry runs in a fresh context; if it returns, that context
 * ends by resuming the caller's saved one. That frame is still alive then:
 * only a switch back to the caller (which returns from bb_ctx_call) could
 * have ended it, and after one, entry never returns. */
struct call {
    void (*entry)(void *);
    void *arg;
    void **save;
};

static void call_trampoline(void *p)
{
    struct call c = *(struct call *)p;
    c.entry(c.arg);
    bb_ctx_exit(*c.save, NULL, NULL);
}

void bb_ctx_call(void **save, void *stack_base, size_t size, void (*entry)(void *), void *arg)
{
    struct call c = {entry, arg, save};
    bb_ctx_jump(save, bb_ctx_make(stack_base, size, call_trampoline, &c), NULL, NULL);
}

/* Here a context must be saved to come back at all; nobody else sees it,
 * and it is abandoned if entry leaves for good. */
void bb_ctx_run_on(void *stack_base, size_t size, void (*entry)(void *), void *arg)
{
    void *save;
    bb_ctx_call(&save, stack_base, size, entry, arg);
}

void bb_ctx_exit(void *target, void (*fn)(void *), void *arg)
{
    pending.fn = fn;
    pending.arg = arg;
    setcontext((ucontext_t *)target);
    abort();
}

void bb_ctx_exit_start(void *stack_base, size_t size, void (*fn)(void *), void *arg,
                       void (*entry)(void *), void *entry_arg)
{
    bb_ctx_exit(bb_ctx_make(stack_base, size, entry, entry_arg), fn, arg);
}
