/*
 * The smallest user-defined scheduler loop, for tests that need a scheduler
 * of their own but do not test its loop:
 *
 *   static ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = one_pool_sched_run};
 *
 * It runs the ULTs of its first pool in order, checks its events between
 * them, and stops when ABT_sched_has_to_stop says so. Also here: an ES that
 * runs such a scheduler of the test's (start_user_sched_es), and a ULT that
 * makes a scheduler its ES's main one (replace_main_sched_here). Every call
 * is checked.
 */
#ifndef SCHED_USER_UTIL_H
#define SCHED_USER_UTIL_H

#include "bb_test.h"

static inline void one_pool_sched_run(ABT_sched sched)
{
    ABT_pool pool;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (;;) {
        ABT_thread t = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL)
            CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
        ABT_bool stop = ABT_FALSE;
        CHECK_OK(ABT_sched_has_to_stop(sched, &stop));
        if (stop)
            break;
        CHECK_OK(ABT_xstream_check_events(sched));
    }
}

/* A ULT's function that makes the scheduler `*(ABT_sched *)arg` the main
 * scheduler of the ES it runs on (which ABT_xstream_set_main_sched wants to
 * be called from). */
static inline void replace_main_sched_here(void *arg)
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_set_main_sched(es, *(ABT_sched *)arg));
}

/* A new ES whose main scheduler is a user-defined one running `run` over
 * one new shared pool (FIFO, MPMC, automatic: it goes with the scheduler,
 * which the test frees after the ES). */
static inline ABT_xstream start_user_sched_es(void (*run)(ABT_sched), ABT_sched *sched,
                                              ABT_pool *pool)
{
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, pool));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = run};
    CHECK_OK(ABT_sched_create(&def, 1, pool, ABT_SCHED_CONFIG_NULL, sched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(*sched, &es));
    return es;
}

#endif
