/*
 * The predefined scheduler loops. All share one skeleton (run_loop): pick a
 * unit, run it, and every `event_freq` rounds, or whenever there was nothing
 * to run, look at events and stop if asked to. They differ in how they pick
 * and in what they do when idle:
 *
 *   BASIC, PRIO, DEFAULT  first non-empty pool in pool order; idle: poll for
 *                         BB_IDLE_SPIN_NS, then give the CPU away at each
 *                         round: sched_yield(), or a sleep of
 *                         ABT_SCHED_SLEEP_NSEC if that is set.
 *   RANDWS                own pool (the first) first, else steal the oldest
 *                         unit of a random other pool.
 *   BASIC_WAIT            as BASIC, but idle for BB_IDLE_SPIN_NS it sleeps in
 *                         the kernel until a unit arrives or a request
 *                         comes: no polling, no timer. It polls only while
 *                         polling pays (see sleep_spin_ns).
 */
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "bb_info.h"
#include "bb_pool.h"
#include "bb_pool_list.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_xstream.h"

typedef bb_unit *(*pick_fn)(bb_sched *s, bb_pool **from);
/* How long a scheduler has found nothing to run: `rounds` is reset to zero
 * by every unit run, and reads BB_IDLE_SPUN once it has polled as long as
 * it should (spun_enough). */
typedef struct {
    unsigned rounds;
    uint64_t since_ns;  /* when `rounds` left zero */
} bb_idle;

#define BB_IDLE_SPUN UINT32_MAX

/* A private FIFO, the pool of a fork-join on one ES, is popped inline. */
static inline bb_unit *pop_for_loop(bb_pool *pool)
{
    if (bb_pool_can(pool, BB_POOL_PRIVATE_FIFO))
        return list_pop_head(pool);
    return bb_pool_pop(pool);
}

typedef void (*idle_fn)(bb_sched *s, bb_idle *idle);

static inline __attribute__((always_inline)) bb_unit *pick_in_order(bb_sched *s, bb_pool **from)
{
    for (int i = 0; i < s->num_pools; i++) {
        bb_unit *u = pop_for_loop(s->pools[i]);
        if (u) {
            *from = s->pools[i];
            return u;
        }
    }
    return NULL;
}

static uint64_t next_random(bb_sched *s)
{
    uint64_t x = s->random; /* xorshift64 */
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return s->random = x;
}

static bb_unit *pick_or_steal(bb_sched *s, bb_pool **from)
{
    if (s->num_pools == 0)
        return NULL;
    bb_unit *u = pop_for_loop(s->pools[0]);
    if (u) {
        *from = s->pools[0];
        return u;
    }
    if (s->num_pools == 1)
        return NULL;
    bb_pool *victim = s->pools[1 + next_random(s) % (uint64_t)(s->num_pools - 1)];
    u = victim->ops->pop(victim, ABT_POOL_CONTEXT_OWNER_SECONDARY);
    if (u)
        *from = victim;
    return u;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether the scheduler has been idle for `spin_ns`; reads the clock every
 * 16 rounds only. */
static bool spun_enough(bb_idle *idle, uint64_t spin_ns)
{
    if (idle->rounds == BB_IDLE_SPUN)
        return true;
    if (idle->rounds++ == 0)
        idle->since_ns = now_ns();
    if (spin_ns == 0 || (idle->rounds % 16 == 0 && now_ns() - idle->since_ns >= spin_ns))
        idle->rounds = BB_IDLE_SPUN;
    return idle->rounds == BB_IDLE_SPUN;
}

/* Whether a sleeping scheduler polls before it sleeps. Polling pays when
 * work comes back within BB_IDLE_SPIN_NS (a ping-pong between ESs): it
 * finds the ES awake, with no system call on either side. When work comes
 * later, polling only burns CPU, and it also delays the wake-up: Linux
 * lets a woken thread preempt the thread that woke it only if the woken
 * one is owed CPU time, which an ES that polls after every unit is not. It
 * then waits until its waker blocks, 10 us more on this project's test VM,
 * where the whole wake-up takes 10-20 us. So a scheduler that polled in
 * vain BB_IDLE_VAIN_SPINS times in a row sleeps at once, until work again
 * comes within BB_IDLE_SPIN_NS of its going idle. */
static uint64_t sleep_spin_ns(const bb_sched *s)
{
    return bb_sched_polls_before_sleep(s) ? BB_IDLE_SPIN_NS : 0;
}

/* Work came `idle_ns` after the scheduler went idle (or it woke up then,
 * which looks the same from here). Owner ES only. */
static void note_idle_end(bb_sched *s, uint64_t idle_ns)
{
    unsigned vain = bb_load_relaxed(&s->idle_vain);
    if (idle_ns < BB_IDLE_SPIN_NS)
        vain = 0;
    else if (vain < BB_IDLE_VAIN_SPINS)
        vain++;
    bb_store_relaxed(&s->idle_vain, vain);
}

/* Sleep `ns` nanoseconds (ABT_SCHED_SLEEP_NSEC, below a second) on the
 * scheduler's bell, armed meanwhile: a request to stop (ES join, free,
 * finalize) or a stack dump rings it, and ends the sleep at once. New work
 * does not: it waits for the sleep's end, as in Argobots. A signal may end
 * the sleep early, which only makes the next poll come sooner. */
static void sleep_on_bell(bb_sched *s, uint64_t ns)
{
    bb_bell_arm(s->bell, 1);
    uint32_t seen = bb_bell_peek(s->bell);
    if (!bb_sched_has_to_stop(s) && !bb_info_dump_requested())
        bb_bell_wait(s->bell, seen, (double)ns * 1e-9);
    bb_bell_arm(s->bell, 0);
}

static void back_off(bb_sched *s, bb_idle *idle)
{
    if (!spun_enough(idle, BB_IDLE_SPIN_NS))
        bb_cpu_relax();
    else if (bb_rt.config.idle_sleeps)
        sleep_on_bell(s, bb_rt.config.sched_sleep_nsec);
    else
        sched_yield();
}

/* A sleeping scheduler must be woken by every push into any of its pools,
 * and only a main scheduler may block its ES: a stacked one would put its
 * parent to sleep with it. */
static bool can_sleep(bb_sched *s)
{
    if (bb_load_relaxed(&s->used) != BB_SCHED_MAIN)
        return false;
    for (int i = 0; i < s->num_pools; i++)
        if (!bb_pool_can(s->pools[i], BB_POOL_WAKES_SLEEPERS))
            return false;
    return true;
}

static bool all_pools_empty(bb_sched *s)
{
    for (int i = 0; i < s->num_pools; i++)
        if (!bb_pool_is_empty(s->pools[i]))
            return false;
    return true;
}

/* Nothing woken elsewhere waits in this ES's inbox. A waker rings the bell
 * after it fills the inbox (hand_to_es, switch.c): if that ring came before
 * the peek, this look, after it, sees the unit. */
static bool inbox_is_empty(void)
{
    bb_unit *inbox = bb_load_acquire(&bb_self_xstream()->remote_ready);
    return inbox == NULL || inbox == BB_INBOX_CLOSED;
}

/* Arm the bell, register with every pool, look once more, sleep; see
 * src/pool/sleep.c for why no wake-up is lost. The registrations stay when
 * the scheduler wakes up: it goes straight back to work, and pushes that meet
 * its nodes while its bell is disarmed skip and unlink them. That keeps the
 * locks of its pools, and any wait for its pusher, off the wake-up path. */
static void sleep_until_work(bb_sched *s, bb_idle *idle)
{
    if (!can_sleep(s)) {
        back_off(s, idle);
        return;
    }
    if (!spun_enough(idle, sleep_spin_ns(s))) {
        bb_cpu_relax();
        return;
    }
    if (!s->sleepers && s->num_pools > 0) {
        s->sleepers = calloc((size_t)s->num_pools, sizeof(*s->sleepers));
        if (!s->sleepers) {
            back_off(s, idle); /* no memory to sleep with: poll */
            return;
        }
        for (int i = 0; i < s->num_pools; i++)
            s->sleepers[i].sched = true;
    }
    bb_mem_cache_lend(bb_self_mem_cache());
    bb_bell_arm(s->bell, 1);
    for (int i = 0; i < s->num_pools; i++)
        bb_pool_add_sleeper(s->pools[i], &s->sleepers[i], s->bell);
    uint32_t seen = bb_bell_peek(s->bell);
    /* A dump's ring may have come before the peek (bb_info_dump_requested:
     * set before any ring). And a pusher that took the arm (sleep.c) may
     * have rung before the peek, for a unit another ES took meanwhile:
     * disarmed, this scheduler must not sleep, since later pushes skip it
     * (they count on its being awake, or about to wake); it arms again. */
    if (all_pools_empty(s) && inbox_is_empty() && !bb_sched_has_to_stop(s) &&
        !bb_info_dump_requested() && bb_bell_is_armed(s->bell)) {
        bb_bell_wait(s->bell, seen, -1);
        note_idle_end(s, now_ns() - idle->since_ns);
    }
    bb_bell_arm(s->bell, 0); /* awake: pushes skip its nodes (see sleep.c) */
}

/* A scheduler that stops takes its sleeper nodes out of its pools, and if it
 * stops with work left (EXIT) it may have been the one a push woke: it passes
 * the wake-up on to whoever else sleeps on those pools. */
static void stop_sleeping(bb_sched *s)
{
    if (!s->sleepers)
        return;
    for (int i = 0; i < s->num_pools; i++) {
        bb_pool *p = s->pools[i];
        bb_pool_remove_sleeper(p, &s->sleepers[i]);
        if (!bb_pool_is_empty(p))
            bb_pool_wake_one(p);
    }
}

/* One round of the loop, or several: the unit `pick` chooses runs, and each
 * counts as a round. The first pool, which every pick looks at first, is
 * run in one go (bb_unit_run_fifo for a private FIFO, inline, and
 * bb_unit_run_popped for any other), until it is empty or the events are
 * due. Returns whether anything ran. */
static inline __attribute__((always_inline)) bool run_next(bb_sched *s, pick_fn pick)
{
    if (s->direct_pool) {
        if (bb_unit_run_fifo(s, s->direct_pool))
            return true;
    } else if (s->num_pools > 0 && bb_unit_run_popped(s, s->pools[0])) {
        return true;
    }
    bb_pool *pool = NULL;
    bb_unit *u = pick(s, &pool);
    if (u)
        bb_xstream_run_unit(bb_self_xstream(), u, pool);
    s->rounds_left--; /* at least 1 here: the first pool stops at 0 and returns true */
    return u != NULL;
}

/* A loop that stops at once (an exit) with a unit handed to it (by a direct
 * yield, or by its tasklets' run, switch.c) puts the unit back into the pool
 * it was popped from, its first. */
static void give_back_handed(bb_sched *s)
{
    bb_unit *u = bb_sched_take_handed(s);
    if (u)
        bb_pool_push(s->pools[0], u, ABT_POOL_CONTEXT_OP_POOL_OTHER);
}

/* Inlined into each loop below, so that `pick` and `idle` are direct calls. */
static inline __attribute__((always_inline)) void run_loop(bb_sched *s, pick_fn pick,
                                                          idle_fn idle)
{
    bb_idle idle_state = {0};
    s->rounds_left = (unsigned)s->event_freq;
    for (;;) {
        bool ran = run_next(s, pick);
        if (ran && idle_state.rounds != 0) {
            if (idle_state.rounds != BB_IDLE_SPUN && bb_load_relaxed(&s->idle_vain) != 0)
                note_idle_end(s, 0); /* polling found work */
            idle_state.rounds = 0;
        }
        if (s->rounds_left == 0 || !ran) {
            s->rounds_left = (unsigned)s->event_freq;
            bb_sched_check_events(s);
            if (bb_sched_has_to_stop(s))
                break;
            if (!ran)
                idle(s, &idle_state);
        }
    }
    give_back_handed(s);
    stop_sleeping(s);
}

void bb_sched_basic_run(ABT_sched handle)
{
    run_loop(bb_sched_of(handle), pick_in_order, back_off);
}

void bb_sched_basic_wait_run(ABT_sched handle)
{
    run_loop(bb_sched_of(handle), pick_in_order, sleep_until_work);
}

void bb_sched_randws_run(ABT_sched handle)
{
    run_loop(bb_sched_of(handle), pick_or_steal, back_off);
}
