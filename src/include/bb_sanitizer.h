/*
 * Cooperation with sanitizers, found at run time through weak symbols: in a
 * normal build these are NULL and each hook costs a test and a branch; under
 * -fsanitize=address the real functions are linked in. No special build.
 */
#ifndef BB_SANITIZER_H
#define BB_SANITIZER_H

#include <stddef.h>

void __asan_unpoison_memory_region(void const volatile *addr, size_t size) __attribute__((weak));

/* A stack is about to host a fresh context. Frames of a previous ULT that
 * ended with a switch (not a return) left their redzones poisoned; forget
 * them, or ASan reports overflows in the next ULT on this memory. */
static inline void bb_sanitizer_fresh_stack(void *stack, size_t size)
{
    if (__asan_unpoison_memory_region)
        __asan_unpoison_memory_region(stack, size);
}

#endif
