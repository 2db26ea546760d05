/*
 * Cooperation with sanitizers, found at run time through weak symbols: in a
 * normal build these are NULL and each hook costs a test and a branch; under
 * -fsanitize=address the real functions are linked in. No special build.
 */
#ifndef BB_SANITIZER_H
#define BB_SANITIZER_H

#include <stdbool.h>
#include <stddef.h>

void __asan_unpoison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size)
    __attribute__((weak));
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old) __attribute__((weak));

/* Whether AddressSanitizer is in the process (set at ABT_init): every
 * context switch then tells it which stack it moves to (src/unit/switch.c). */
extern __attribute__((visibility("hidden"))) bool bb_asan_fibers;

/* A stack is about to host a fresh context. Frames of a previous ULT that
 * ended with a switch (not a return) left their redzones poisoned; forget
 * them, or ASan reports overflows in the next ULT on this memory. */
static inline void bb_sanitizer_fresh_stack(void *stack, size_t size)
{
    if (__asan_unpoison_memory_region)
        __asan_unpoison_memory_region(stack, size);
}

#endif
