/*
 * Shared scaffolding for the regression tests about a suspended ULT X:
 *
 *   rg_pools(&self, &main_pool)   the primary ES and its first main pool
 *   rg_start_x(p)                 X made in pool p, runs x_body there and
 *                                 suspends; returns once X is BLOCKED
 *
 * x_body sets x_blocked before suspending and, once resumed, records the pool
 * and ES it continues on (x_pool_after, x_xs_after) and then sets x_done.
 * Every helper checks the calls it makes itself (CHECK_OK).
 */
#ifndef REGRESS_UTIL_H
#define REGRESS_UTIL_H

#include <stdatomic.h>
#include "bb_test.h"

static ABT_thread X;
static atomic_int x_blocked, x_done;
static ABT_pool x_pool_after;
static ABT_xstream x_xs_after;

static inline void x_body(void *arg)
{
    (void)arg;
    atomic_store(&x_blocked, 1);
    ABT_self_suspend();
    ABT_self_get_last_pool(&x_pool_after);
    ABT_self_get_xstream(&x_xs_after);
    atomic_store(&x_done, 1);
}

static inline void rg_pools(ABT_xstream *self, ABT_pool *main_pool)
{
    CHECK_OK(ABT_xstream_self(self));
    CHECK_OK(ABT_xstream_get_main_pools(*self, 1, main_pool));
}

static inline void rg_start_x(ABT_pool p)
{
    CHECK_OK(ABT_thread_create(p, x_body, NULL, ABT_THREAD_ATTR_NULL, &X));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (!atomic_load(&x_blocked) || st != ABT_THREAD_STATE_BLOCKED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(X, &st));
    }
}

#endif
