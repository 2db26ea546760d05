/*
 * Waiting for a pool to get work, without polling.
 *
 * A sleeper links a node into the pool's list (under the pool's lock), then
 * checks the pool once more, then sleeps on its bell. A push that finds the
 * list non-empty unlinks the first node and rings its bell. Either the push
 * comes after the node is linked (and sees it), or before the check (and the
 * check sees the unit): no wake-up is lost. Built-in pools look at the list
 * inside the lock they push under; user pools, whose push is the user's code,
 * look after a full barrier (see user.c).
 *
 * One push wakes one sleeper: with hundreds of ESs asleep on a shared pool, a
 * unit should not wake them all. A woken scheduler tries all its pools before
 * sleeping again, so a unit is never left behind while its taker sleeps.
 */
#include <sched.h>
#include <time.h>

#include "bb_pool.h"

void bb_pool_add_sleeper(bb_pool *pool, bb_pool_sleeper *s, bb_bell *bell)
{
    s->bell = bell;
    s->prev = NULL;
    bb_spin_lock(&pool->lock);
    s->next = pool->sleepers;
    if (s->next)
        s->next->prev = s;
    pool->sleepers = s;
    s->linked = true;
    bb_spin_unlock(&pool->lock);
    /* Pair with the barrier after a user pool's push (user.c). */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void unlink_sleeper(bb_pool *pool, bb_pool_sleeper *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        pool->sleepers = s->next;
    if (s->next)
        s->next->prev = s->prev;
    s->linked = false;
}

void bb_pool_remove_sleeper(bb_pool *pool, bb_pool_sleeper *s)
{
    bb_spin_lock(&pool->lock);
    if (s->linked)
        unlink_sleeper(pool, s);
    bb_spin_unlock(&pool->lock);
}

/* The ring happens under the lock: once a sleeper has unlinked itself (or
 * seen itself unlinked) under that lock, nobody touches its bell again, so
 * the bell may live on the sleeper's stack. */
void bb_pool_wake_one_locked(bb_pool *pool)
{
    bb_pool_sleeper *s = pool->sleepers;
    if (!s)
        return;
    unlink_sleeper(pool, s);
    bb_bell_ring(s->bell);
}

void bb_pool_wake_one(bb_pool *pool)
{
    bb_spin_lock(&pool->lock);
    bb_pool_wake_one_locked(pool);
    bb_spin_unlock(&pool->lock);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ABT_pool_pop_wait on a built-in pool: pop, or sleep until a push or the
 * deadline. A private pool gets no pushes from others; it just waits out the
 * time, giving the CPU away. */
bb_unit *bb_pool_pop_wait_generic(bb_pool *pool, double secs, bb_pool_ctx ctx)
{
    double deadline = now_seconds() + (secs > 0 ? secs : 0);
    for (;;) {
        bb_unit *u = pool->ops->pop(pool, ctx);
        double left = deadline - now_seconds();
        if (u || left <= 0)
            return u;
        if (!bb_pool_can(pool, BB_POOL_WAKES_SLEEPERS)) {
            sched_yield();
            continue;
        }
        bb_bell bell = {0, 0};
        bb_pool_sleeper node;
        bb_pool_add_sleeper(pool, &node, &bell);
        if (pool->ops->is_empty(pool))
            bb_bell_wait(&bell, 0, left);
        bb_pool_remove_sleeper(pool, &node);
    }
}
