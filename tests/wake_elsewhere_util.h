/*
 * Scaffolding for the tests of a blocked ULT woken while the ES it last ran
 * on is not its pool's: the target ULT suspends where it starts, a ULT of
 * another ES (ES2) resumes it there by a hand-over
 * (ABT_self_resume_yield_to), and on ES2 it blocks on `mutex`, which the
 * test holds. Unlocking it then wakes the target from the test's ES.
 *
 *   CHECK_OK(ABT_mutex_create(&mutex)); CHECK_OK(ABT_mutex_lock(mutex));
 *   ... start the target: start_target_on_new_es or start_target_here ...
 *   move_target_to(es2_pool, settle_us);   it blocks on ES2
 *   CHECK_OK(ABT_mutex_unlock(mutex));     the wake under test
 *   ... `done` says it finished ...
 */
#ifndef WAKE_ELSEWHERE_UTIL_H
#define WAKE_ELSEWHERE_UTIL_H

#include <stdatomic.h>
#include "bb_test.h"

static ABT_mutex mutex;
static ABT_thread target;
static atomic_int suspended, waiting_for_mutex, done;

static inline void target_body(void *arg)
{
    (void)arg;
    atomic_store(&suspended, 1);
    CHECK_OK(ABT_self_suspend()); /* where it started */
    atomic_store(&waiting_for_mutex, 1);
    CHECK_OK(ABT_mutex_lock(mutex)); /* on ES2 */
    CHECK_OK(ABT_mutex_unlock(mutex));
    atomic_store(&done, 1);
}

/* A ULT that creates the target in the pool `arg` (for a private pool, only
 * a ULT of its ES may). */
static inline void create_target(void *arg)
{
    CHECK_OK(ABT_thread_create((ABT_pool)arg, target_body, NULL, ABT_THREAD_ATTR_NULL, &target));
}

/* Creates ES1, whose main scheduler holds a shared pool and a private one
 * (the latter's home), and starts the target there, from the private pool.
 * Returns ES1. */
static inline ABT_xstream start_target_on_new_es(void)
{
    ABT_pool priv1, shared1;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared1));
    ABT_pool pools1[2] = {shared1, priv1};
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools1, ABT_SCHED_CONFIG_NULL, &es1));
    ABT_thread helper;
    CHECK_OK(ABT_thread_create(shared1, create_target, priv1, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_free(&helper));
    return es1;
}

/* Pops the next ULT of `priv` and runs it on the caller's ES until it
 * leaves; returns it (ABT_THREAD_NULL: `priv` was empty, nothing ran). */
static inline ABT_thread schedule_next_of(ABT_pool priv)
{
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(priv, &t));
    if (t != ABT_THREAD_NULL)
        CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
    return t;
}

/* Starts the target on the caller's ES from `priv`, a private pool with no
 * home (no scheduler holds it), which the caller alone pops. */
static inline void start_target_here(ABT_pool priv)
{
    CHECK_OK(ABT_thread_create(priv, target_body, NULL, ABT_THREAD_ATTR_NULL, &target));
    CHECK(schedule_next_of(priv) == target);
    CHECK(atomic_load(&suspended));
}

/* Waits up to 5 s for the target to finish on another ES; checks it did. */
static inline void until_target_done(void)
{
    for (int i = 0; i < 5000 && !atomic_load(&done); i++)
        usleep(1000);
    CHECK(atomic_load(&done));
}

static inline void resumer(void *arg)
{
    (void)arg;
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (!atomic_load(&suspended) || state != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(target, &state));
        CHECK_OK(ABT_self_yield());
    }
    CHECK_OK(ABT_self_resume_yield_to(target));
}

/* Resumes the suspended target on the ES that serves `es2_pool`, where it
 * blocks on `mutex`; `settle_us` gives it (and an idle ES2) time to sleep. */
static inline void move_target_to(ABT_pool es2_pool, useconds_t settle_us)
{
    ABT_thread helper;
    CHECK_OK(ABT_thread_create(es2_pool, resumer, NULL, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_free(&helper));
    while (!atomic_load(&waiting_for_mutex))
        usleep(1000);
    usleep(settle_us);
}

/* A ULT that holds its ES, with no event check, until `*(atomic_int *)arg`
 * is set; `busy` says it has started. */
static atomic_int busy;
static inline void busy_until(void *arg)
{
    atomic_store(&busy, 1);
    while (!atomic_load((atomic_int *)arg))
        ;
}

/* Runs busy_until(`flag`) on the ES that serves `pool` and waits for it. */
static inline ABT_thread occupy(ABT_pool pool, atomic_int *flag)
{
    ABT_thread b;
    CHECK_OK(ABT_thread_create(pool, busy_until, flag, ABT_THREAD_ATTR_NULL, &b));
    while (!atomic_load(&busy))
        usleep(1000);
    return b;
}

#endif
