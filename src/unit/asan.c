/*
 * AddressSanitizer fiber annotations for context switches (bb_switch.h).
 *
 * Before a switch, ASan is told the target's stack; on the target's stack,
 * before the switch's callback, it is told the switch is done, and hands
 * back the bounds of the stack just left. Units with a stack of their own
 * report it; a unit that runs on its OS thread's stack (the primary ULT, a
 * secondary ES's scheduler) uses the bounds its ES learned the first time
 * that stack was left. The switch in flight is recorded in its ES, which
 * runs one switch at a time.
 */
#include "bb_switch.h"
#include "bb_xstream.h"

bool bb_asan_fibers;

static void stack_of(const bb_unit *u, const void **bottom, size_t *size)
{
    if (u->stack) {
        *bottom = u->stack;
        *size = u->stacksize;
    } else {
        *bottom = u->xstream ? u->xstream->native_stack : NULL;
        *size = u->xstream ? u->xstream->native_stack_size : 0;
    }
}

static void landing(void *arg)
{
    bb_xstream *es = arg;
    bb_unit *from = es->asan_from, *to = es->current;
    bb_ctx_fn fn = es->asan_fn;
    void *fn_arg = es->asan_arg;
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(to->asan_fake_stack, &bottom, &size);
    if (from && !from->stack && from->xstream && !from->xstream->native_stack) {
        from->xstream->native_stack = bottom; /* the OS thread's own stack */
        from->xstream->native_stack_size = size;
    }
    if (fn)
        fn(fn_arg);
}

static bb_xstream *prepare(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg, bool exiting)
{
    bb_xstream *es = bb_self_xstream();
    es->asan_from = exiting ? NULL : from;
    es->asan_fn = fn;
    es->asan_arg = arg;
    const void *bottom;
    size_t size;
    stack_of(to, &bottom, &size);
    __sanitizer_start_switch_fiber(exiting ? NULL : &from->asan_fake_stack, bottom, size);
    return es;
}

void bb_asan_jump(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg)
{
    bb_xstream *es = prepare(from, to, fn, arg, false);
    bb_ctx_jump(&from->ctx, to->ctx, landing, es);
}

void bb_asan_exit(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg)
{
    bb_xstream *es = prepare(from, to, fn, arg, true);
    bb_ctx_exit(to->ctx, landing, es);
}
