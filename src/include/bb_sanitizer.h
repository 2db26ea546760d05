/*
 * Cooperation with tools that watch memory and threads: AddressSanitizer,
 * ThreadSanitizer and valgrind (and MemorySanitizer, for the one place that
 * reads memory nobody may have written: bb_sanitizer_mark_defined). All are
 * found at run time (weak symbols for the sanitizers, valgrind's client
 * request for valgrind), the switch hooks at ABT_init: the one normal build
 * works under each, and without them every hook costs a test and a branch.
 * The switch hooks themselves are in src/unit/fibers.c.
 */
#ifndef BB_SANITIZER_H
#define BB_SANITIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <valgrind/memcheck.h>

void __asan_unpoison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size)
    __attribute__((weak));
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old) __attribute__((weak));
void *__tsan_get_current_fiber(void) __attribute__((weak));
void *__tsan_create_fiber(unsigned flags) __attribute__((weak));
void __tsan_destroy_fiber(void *fiber) __attribute__((weak));
void __tsan_switch_to_fiber(void *fiber, unsigned flags) __attribute__((weak));
void __msan_unpoison(const volatile void *addr, size_t size) __attribute__((weak));

/* Which tools are in the process; `any` is the one test on each switch. */
struct bb_fiber_tools {
    bool any;
    bool asan;     /* tell it which stack each switch moves to */
    bool tsan;     /* give each ULT a fiber, switch fibers with the contexts */
    bool valgrind; /* register every ULT stack before it first runs */
};
extern __attribute__((visibility("hidden"))) struct bb_fiber_tools bb_fiber_tools;

/* Look for the tools (ABT_init). */
void bb_fiber_tools_detect(void);

/* A stack is about to host a fresh context. Frames of a previous ULT that
 * ended with a switch (not a return) left their redzones poisoned; forget
 * them, or ASan reports overflows in the next ULT on this memory. */
static inline void bb_sanitizer_fresh_stack(void *stack, size_t size)
{
    if (__asan_unpoison_memory_region)
        __asan_unpoison_memory_region(stack, size);
}

/* `p` holds a copy of memory the program may never have written (a stack
 * dump's), to be shown as it is: valgrind's memcheck and MemorySanitizer must
 * not call its use a use of uninitialized memory. */
static inline void bb_sanitizer_mark_defined(void *p, size_t size)
{
    VALGRIND_MAKE_MEM_DEFINED(p, size);
    if (__msan_unpoison)
        __msan_unpoison(p, size);
}

#endif
