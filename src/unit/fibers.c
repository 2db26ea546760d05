/*
 * Context switches as the tools watching the process must see them
 * (bb_switch.h sends every switch here when one of them is present).
 *
 * AddressSanitizer tracks which stack is live. Before a switch it is told
 * the target's stack; on the target's stack, before the switch's callback,
 * it is told the switch is done, and hands back the bounds of the stack
 * just left. Units with a stack of their own report it; a unit that runs on
 * its OS thread's stack (the primary ULT, a secondary ES's scheduler) uses
 * the bounds its ES learned the first time that stack was left. The switch
 * in flight is recorded in its ES, which runs one switch at a time. Each
 * unit keeps its own fake-stack slot.
 *
 * ThreadSanitizer keeps a shadow stack and a clock per fiber. A ULT with a
 * stack of its own gets a fiber when it is first switched to, destroyed when
 * it leaves its context for good (or its memory is released first); a unit
 * on its OS thread's stack uses that thread's fiber. Switches synchronize
 * (the unit switched to sees what the one switched from did), as a context
 * switch does.
 *
 * Valgrind's memory-tracking tools must know which memory is a stack, or a
 * switch between two stacks looks like one enormous frame. Every ULT stack
 * is registered when it is first switched to and deregistered when the
 * unit's memory is released.
 */
#include <stdlib.h>
#include <string.h>
#include <valgrind/valgrind.h>

#include "bb_switch.h"
#include "bb_xstream.h"

struct bb_fiber_tools bb_fiber_tools;

/* Stacks matter to valgrind's tools that track memory (memcheck, helgrind,
 * drd), which load a preload library of their own; callgrind and cachegrind
 * do not, and leaving them out keeps instruction counts those of a plain
 * run. */
static bool valgrind_watches_memory(void)
{
    if (!RUNNING_ON_VALGRIND)
        return false;
    const char *preload = getenv("LD_PRELOAD");
    return preload && (strstr(preload, "vgpreload_memcheck") ||
                       strstr(preload, "vgpreload_helgrind") || strstr(preload, "vgpreload_drd"));
}

void bb_fiber_tools_detect(void)
{
    struct bb_fiber_tools t = {0};
    t.asan = __sanitizer_start_switch_fiber && __sanitizer_finish_switch_fiber;
    t.tsan = __tsan_get_current_fiber && __tsan_create_fiber && __tsan_destroy_fiber &&
             __tsan_switch_to_fiber;
    /* One tool at a time (their state shares bb_unit.fiber): neither
     * sanitizer runs under valgrind. */
    t.valgrind = !t.asan && !t.tsan && valgrind_watches_memory();
    t.any = t.asan || t.tsan || t.valgrind;
    bb_fiber_tools = t;
}

/* ---- AddressSanitizer ------------------------------------------------------ */

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

/* First thing on the target's stack: finish the switch, then the callback. */
static void asan_landing(void *arg)
{
    bb_xstream *es = arg;
    bb_unit *from = es->asan_from, *to = es->current;
    bb_ctx_fn fn = es->asan_fn;
    void *fn_arg = es->asan_arg;
    const void *bottom;
    size_t size;
    __sanitizer_finish_switch_fiber(to->fiber.asan_fake_stack, &bottom, &size);
    if (from && !from->stack && from->xstream && !from->xstream->native_stack) {
        from->xstream->native_stack = bottom; /* the OS thread's own stack */
        from->xstream->native_stack_size = size;
    }
    if (fn)
        fn(fn_arg);
}

static void asan_start(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg, bool exiting)
{
    bb_xstream *es = bb_self_xstream();
    es->asan_from = exiting ? NULL : from;
    es->asan_fn = fn;
    es->asan_arg = arg;
    const void *bottom;
    size_t size;
    stack_of(to, &bottom, &size);
    __sanitizer_start_switch_fiber(exiting ? NULL : &from->fiber.asan_fake_stack, bottom, size);
}

/* ---- ThreadSanitizer --------------------------------------------------------- */

/* Inlined into the switch: an instrumented frame of its own would leave TSan's
 * function-exit on the fiber switched to. */
static inline __attribute__((always_inline)) void tsan_switch(bb_unit *from, bb_unit *to)
{
    if (!from->stack) /* its OS thread's fiber; a revived ES has a new thread */
        from->fiber.tsan = __tsan_get_current_fiber();
    if (!to->fiber.tsan)
        to->fiber.tsan = __tsan_create_fiber(0); /* a stack of its own, never run */
    __tsan_switch_to_fiber(to->fiber.tsan, 0);
}

/* A unit leaving its context for good gives its fiber back at once, not
 * when its memory is released: TSan counts fibers among its threads, of
 * which it allows only a few thousand (8,128 with GCC 12), and a program
 * may keep many finished ULTs before freeing them. Called after the switch
 * has made `to`'s fiber the current one; only fibers made here. A unit that
 * runs again (revived, a restarted scheduler) gets a new one. */
static void tsan_forget_exited(bb_unit *from)
{
    if (from->stack && from->fiber.tsan) {
        __tsan_destroy_fiber(from->fiber.tsan);
        from->fiber.tsan = NULL;
    }
}

/* ---- valgrind ----------------------------------------------------------------- */

static void valgrind_register(bb_unit *to)
{
    if (to->stack && !to->fiber.vg.registered) {
        char *lo = to->stack;
        to->fiber.vg.stack_id = VALGRIND_STACK_REGISTER(lo, lo + to->stacksize);
        to->fiber.vg.registered = true;
    }
}

/* ---- the switch ------------------------------------------------------------------ */

/* Everything but the jump; returns the callback the jump must run. */
static inline __attribute__((always_inline)) bb_ctx_fn
before_jump(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg, bool exiting, void **fn_arg)
{
    bb_unit_set_cold(from); /* their fiber state: bb_fibers_release when freed */
    bb_unit_set_cold(to);
    if (bb_fiber_tools.valgrind)
        valgrind_register(to);
    if (bb_fiber_tools.tsan)
        tsan_switch(from, to);
    *fn_arg = arg;
    if (!bb_fiber_tools.asan)
        return fn;
    asan_start(from, to, fn, arg, exiting);
    *fn_arg = bb_self_xstream();
    return asan_landing;
}

void bb_fibers_jump(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg)
{
    if (!to->ctx)
        bb_ult_ensure_stack(to); /* before the tools are told of it */
    void *fn_arg;
    bb_ctx_fn landing = before_jump(from, to, fn, arg, false, &fn_arg);
    bb_ctx_jump(&from->ctx, to->ctx ? to->ctx : bb_unit_fresh_context(to), landing, fn_arg);
}

void bb_fibers_exit(bb_unit *from, bb_unit *to, bb_ctx_fn fn, void *arg)
{
    if (!to->ctx)
        bb_ult_ensure_stack(to); /* before the tools are told of it */
    void *fn_arg;
    bb_ctx_fn landing = before_jump(from, to, fn, arg, true, &fn_arg);
    if (bb_fiber_tools.tsan)
        tsan_forget_exited(from);
    bb_ctx_exit(to->ctx ? to->ctx : bb_unit_fresh_context(to), landing, fn_arg);
}

void bb_fibers_release(bb_unit *u)
{
    if (bb_fiber_tools.tsan && u->fiber.tsan && u->stack)
        __tsan_destroy_fiber(u->fiber.tsan); /* only fibers made here; never current */
    if (bb_fiber_tools.valgrind && u->fiber.vg.registered)
        VALGRIND_STACK_DEREGISTER(u->fiber.vg.stack_id);
    u->fiber = (union bb_unit_fiber){0};
}
