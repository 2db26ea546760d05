/*
 * A ULT body for the tests of stack memory: it fills most of a default
 * (16 KiB) stack with its own byte (its argument), yields, and checks that
 * every byte is still there, counting the ULTs whose pattern held and
 * those whose did not. Stacks that overlap, or one handed out while its
 * ULT still lives, corrupt each other's patterns while all of them are
 * alive at once.
 */
#ifndef STACK_PATTERN_UTIL_H
#define STACK_PATTERN_UTIL_H

#include <abt.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#define STACK_PATTERN_BYTES (10 * 1024) /* most of a 16 KiB stack */

static atomic_int stack_pattern_ok, stack_pattern_bad;

static void stack_pattern_fill_yield_check(void *arg)
{
    unsigned char buf[STACK_PATTERN_BYTES];
    unsigned char tag = (unsigned char)(uintptr_t)arg;
    memset(buf, tag, sizeof(buf));
    __asm__ volatile("" : : "r"(buf) : "memory"); /* keep the buffer on the stack */
    ABT_thread_yield();
    for (size_t i = 0; i < sizeof(buf); i++) {
        if (buf[i] != tag) {
            atomic_fetch_add(&stack_pattern_bad, 1);
            return;
        }
    }
    atomic_fetch_add(&stack_pattern_ok, 1);
}

/* Zero the counts, then create `n` such ULTs in `pool` (handles in
 * `units`), each with its own byte; the caller frees them. The create's
 * error code: the first that was not ABT_SUCCESS. */
static int stack_pattern_create(ABT_pool pool, int n, ABT_thread *units)
{
    atomic_store(&stack_pattern_ok, 0);
    atomic_store(&stack_pattern_bad, 0);
    for (int i = 0; i < n; i++) {
        int err = ABT_thread_create(pool, stack_pattern_fill_yield_check,
                                    (void *)(uintptr_t)(i % 251 + 1), ABT_THREAD_ATTR_NULL,
                                    &units[i]);
        if (err != ABT_SUCCESS)
            return err;
    }
    return ABT_SUCCESS;
}

#endif
