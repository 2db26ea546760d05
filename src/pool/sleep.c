/*
 * Waiting for a pool to get work, without polling.
 *
 * A sleeper arms its bell, links a node into the pool's list (under the
 * pool's lock), checks the pool once more, then sleeps on its bell. A push
 * that finds the list non-empty unlinks nodes until it meets one whose bell
 * is armed, disarms it, and rings it (see bb_pool_take_sleeper_locked): a
 * sleeper linked into several pools is rung by one push, and the next push
 * into any of them goes on to another sleeper. Either the push
 * comes after the node is linked (and sees it), or before the check (and the
 * check sees the unit): no wake-up is lost. Built-in pools look at the list
 * inside the lock they push under; user pools, whose push is the user's code,
 * look after a full barrier (see user.c).
 *
 * One push wakes one sleeper: with hundreds of ESs asleep on a shared pool, a
 * unit should not wake them all. A woken scheduler tries all its pools before
 * sleeping again, so a unit is never left behind while its taker sleeps.
 *
 * The ring (a system call) happens after the pusher has released the pool's
 * lock: the woken thread often lands on the pusher's CPU at once, and must not
 * find the lock still held. The node is marked `ringing` meanwhile, and its
 * owner does not leave (its bell may live on its stack) until the ring is over.
 */
#include <sched.h>
#include <time.h>

#include "bb_pool.h"
#include "bb_time.h"

/* Link `s` (if it is not linked still) so that the next push rings `bell`.
 * A node a pusher is still ringing may be linked again: the pusher touches
 * only `ringing` and the bell from then on. */
void bb_pool_add_sleeper(bb_pool *pool, bb_pool_sleeper *s, bb_bell *bell)
{
    bb_spin_lock(&pool->lock);
    if (!s->linked) {
        /* An owner always links a node with the same bell: a pusher still
         * ringing it reads the bell while we relink. */
        if (s->bell != bell)
            s->bell = bell;
        s->prev = NULL;
        s->next = pool->sleepers;
        if (s->next)
            s->next->prev = s;
        bb_store_relaxed(&pool->sleepers, s);
        s->linked = true;
    }
    bb_spin_unlock(&pool->lock);
    bb_pool_sleep_barrier(pool); /* pairs with the one after a user pool's push */
}

static void unlink_sleeper(bb_pool *pool, bb_pool_sleeper *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        bb_store_relaxed(&pool->sleepers, s->next);
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
    /* A pusher that unlinked us may still be ringing our bell. It is in the
     * middle of a system call, possibly preempted by us: give it the CPU. */
    for (unsigned spins = 0; bb_load_acquire(&s->ringing); spins++) {
        if (spins < 64)
            bb_cpu_relax();
        else
            sched_yield();
    }
}

/* Under the pool's lock: unlink the first sleeper that is really going to
 * sleep, or asleep, take its arm and mark it as being rung; the caller
 * rings it with bb_pool_ring_sleeper once it has released the lock. Nodes
 * of owners that are awake (a woken scheduler leaves its nodes behind), or
 * that another push rings already (a scheduler sleeps in all its pools at
 * once), are unlinked on the way: ringing them would wake nobody, and the
 * unit would wait while another sleeper of this pool sleeps on. An owner
 * arms its bell before it relinks its nodes and looks at the pools a last
 * time, so a node dropped here is relinked before that look, which then
 * sees the unit; and an owner that was rung looks at all its pools before
 * it sleeps again, and never sleeps disarmed (src/sched/basic.c). */
bb_pool_sleeper *bb_pool_take_sleeper_locked(bb_pool *pool)
{
    bb_pool_sleeper *s;
    while ((s = pool->sleepers) != NULL) {
        unlink_sleeper(pool, s);
        if (bb_bell_take_arm(s->bell)) {
            bb_fetch_add_relaxed(&s->ringing, 1u); /* a count: it may be rung again */
            return s;
        }
    }
    return NULL;
}

/* As bb_pool_take_sleeper_locked, for a wake-up that tells that the pool's
 * blocked count dropped (to zero, or for a unit that went elsewhere): what
 * it concerns is a scheduler asked to finish, which sleeps until nothing is
 * left to come (bb_pool_is_drained). Callers of ABT_pool_pop_wait gain
 * nothing from it: rung first, one of them would take the ring and sleep
 * again, and the scheduler would sleep on, its ES never joined. So a
 * scheduler's node is taken first; the others stay linked. Only without
 * one does the first sleeper get it (a user's scheduler may wait in
 * ABT_pool_pop_wait). */
bb_pool_sleeper *bb_pool_take_drain_sleeper_locked(bb_pool *pool)
{
    bb_pool_sleeper *s = pool->sleepers;
    while (s) {
        bb_pool_sleeper *next = s->next;
        if (s->sched) {
            unlink_sleeper(pool, s);
            if (bb_bell_take_arm(s->bell)) {
                bb_fetch_add_relaxed(&s->ringing, 1u);
                return s;
            }
        }
        s = next;
    }
    return bb_pool_take_sleeper_locked(pool);
}

void bb_pool_ring_sleeper(bb_pool_sleeper *s)
{
    bb_bell_ring(s->bell);
    /* Once no ring is in progress, the node and its bell are its owner's. */
    __atomic_fetch_sub(&s->ringing, 1u, __ATOMIC_RELEASE);
}

void bb_pool_wake_one(bb_pool *pool)
{
    bb_spin_lock(&pool->lock);
    bb_pool_sleeper *s = bb_pool_take_sleeper_locked(pool);
    bb_spin_unlock(&pool->lock);
    if (s)
        bb_pool_ring_sleeper(s);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* When a pop that may wait gives up: `at` on the monotonic clock for
 * ABT_pool_pop_wait's timeout, which no change of the system clock should
 * stretch or cut; on the ABT_get_wtime clock for ABT_pool_pop_timedwait's
 * absolute deadline, which moves with the clock as Argobots' does. */
typedef struct pop_deadline {
    double at;
    bool wall;
} pop_deadline;

static double seconds_left(pop_deadline d)
{
    return d.at - (d.wall ? bb_wtime() : now_seconds());
}

/* Pop, or sleep until a push or the deadline. A private pool gets no pushes
 * from others; it just waits out the time, giving the CPU away. */
static bb_unit *pop_before(bb_pool *pool, pop_deadline d, bb_pool_ctx ctx)
{
    for (;;) {
        bb_unit *u = pool->ops->pop(pool, ctx);
        double left = seconds_left(d);
        if (u || left <= 0)
            return u;
        if (!bb_pool_can(pool, BB_POOL_WAKES_SLEEPERS)) {
            sched_yield();
            continue;
        }
        bb_bell bell = {.armed = 1};
        bb_pool_sleeper node = {0};
        bb_pool_add_sleeper(pool, &node, &bell);
        if (pool->ops->is_empty(pool)) {
            if (d.wall)
                bb_bell_wait_until_wtime(&bell, 0, d.at);
            else
                bb_bell_wait(&bell, 0, left);
        }
        bb_pool_remove_sleeper(pool, &node);
    }
}

/* ABT_pool_pop_wait on a built-in pool. */
bb_unit *bb_pool_pop_wait_generic(bb_pool *pool, double secs, bb_pool_ctx ctx)
{
    pop_deadline d = {.at = now_seconds() + (secs > 0 ? secs : 0), .wall = false};
    return pop_before(pool, d, ctx);
}

/* ABT_pool_pop_timedwait on a built-in pool. */
bb_unit *bb_pool_pop_timedwait_generic(bb_pool *pool, double abstime_secs, bb_pool_ctx ctx)
{
    return pop_before(pool, (pop_deadline){.at = abstime_secs, .wall = true}, ctx);
}
