/*
 * What the mixed-load stress tests (test_stress_mixed_ops.c,
 * test_stress_user_pools_mixed.c) share: a random number generator for
 * each worker, a count of unexpected return codes (the first few printed),
 * a count of child runs, the free of a child, and a child that suspends
 * itself with the resume that wakes it.
 */
#ifndef STRESS_UTIL_H
#define STRESS_UTIL_H

#include <stdatomic.h>

#include "bb_test.h"

static atomic_long stress_bad_codes; /* a test checks that it stays 0 */
static atomic_long stress_child_runs; /* every child ULT counts its run here */

static inline void stress_bad_code(const char *what, int code)
{
    if (atomic_fetch_add(&stress_bad_codes, 1) < 10)
        fprintf(stderr, "%s returned %d\n", what, code);
}

/* xorshift64, seeded by the caller with any non-zero value */
static inline unsigned stress_random(unsigned long long *state)
{
    unsigned long long x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return (unsigned)(x >> 17);
}

static inline void stress_free(ABT_thread *child)
{
    int ret = ABT_thread_free(child);
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_thread_free", ret);
}

static inline void stress_suspending_child(void *arg)
{
    (void)arg;
    int ret = ABT_self_suspend();
    if (ret != ABT_SUCCESS)
        stress_bad_code("ABT_self_suspend", ret);
    atomic_fetch_add(&stress_child_runs, 1);
}

/* `child` calls ABT_self_suspend first thing (stress_suspending_child): resume it as soon as it shows
 * BLOCKED, yielding meanwhile. The child's pool must be some ES's first
 * pool: the predefined schedulers take their pools in order, and a caller
 * yielding in a pool taken first would starve the others. */
static inline void stress_resume_when_suspended(ABT_thread child)
{
    for (;;) {
        ABT_thread_state state;
        int ret = ABT_thread_get_state(child, &state);
        if (ret != ABT_SUCCESS) {
            stress_bad_code("ABT_thread_get_state", ret);
            return;
        }
        if (state == ABT_THREAD_STATE_BLOCKED) {
            ret = ABT_thread_resume(child);
            if (ret != ABT_SUCCESS)
                stress_bad_code("ABT_thread_resume", ret);
            return;
        }
        ABT_thread_yield();
    }
}

#endif
