/*
 * A doorbell: a counter that sleepers wait on and anybody may ring.
 *
 * A sleeper reads the counter (bb_bell_peek), checks that there is really
 * nothing to do, and then waits for the counter to move past what it read. A
 * ring that lands between the peek and the wait is therefore never lost: the
 * kernel refuses to sleep on a counter that already moved. Ringing costs one
 * atomic increment, plus a system call only when somebody is asleep.
 */
#ifndef BB_BELL_H
#define BB_BELL_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_atomic.h"

typedef struct bb_bell {
    uint32_t seq;      /* bumped by every ring; the futex word */
    uint32_t sleepers; /* threads inside bb_bell_wait */
    uint32_t armed;    /* its owner is going to sleep, or asleep: worth ringing */
} bb_bell;

static inline void bb_bell_arm(bb_bell *b, uint32_t armed)
{
    __atomic_store_n(&b->armed, armed, __ATOMIC_SEQ_CST);
}

static inline bool bb_bell_is_armed(bb_bell *b)
{
    return __atomic_load_n(&b->armed, __ATOMIC_SEQ_CST) != 0;
}

/* Disarms an armed bell, for the one caller that finds it armed: the one
 * to ring it. Others find it disarmed and wake somebody else. */
static inline bool bb_bell_take_arm(bb_bell *b)
{
    uint32_t armed = 1;
    return __atomic_compare_exchange_n(&b->armed, &armed, 0u, false, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST);
}

static inline uint32_t bb_bell_peek(bb_bell *b)
{
    return __atomic_load_n(&b->seq, __ATOMIC_SEQ_CST);
}

/* Sleep until the bell rings after `seen` was peeked, or `timeout_s` seconds
 * pass (a negative timeout waits forever). May return early; callers loop. */
void bb_bell_wait(bb_bell *b, uint32_t seen, double timeout_s);

/* Same, until `deadline_s` on the ABT_get_wtime clock (real time): a change
 * of the system clock moves the wake-up, as it moves a deadline of
 * pthread_cond_timedwait. */
void bb_bell_wait_until_wtime(bb_bell *b, uint32_t seen, double deadline_s);

void bb_bell_ring(bb_bell *b);

/* Bells that outlive their owners (src/sched/bells.c): a scheduler's bell
 * comes from a process-wide list whose entries are reused, never freed, so
 * that bb_bells_ring_armed may walk it from a signal handler and ring
 * whoever sleeps. A ring that reaches a bell after its owner gave it back
 * at most wakes its next owner for nothing. bb_bell_take returns NULL
 * without memory. */
bb_bell *bb_bell_take(void);
void bb_bell_give_back(bb_bell *b);
void bb_bells_ring_armed(void);

#endif
