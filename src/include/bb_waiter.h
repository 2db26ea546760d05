/*
 * Who waits for an event, and how to wake it.
 *
 * A waiter is a word: either a pointer to a blocked ULT (low bits zero), or a
 * pointer to a bb_os_waiter tagged with BB_WAITER_OS, for a caller that cannot
 * switch contexts (an external thread, a tasklet, a main scheduler) and
 * sleeps in the kernel instead (its OS thread's, bb_os_waiter_arm), or
 * tagged with BB_WAITER_POLL, for a ULT that keeps running and polls the
 * word. Waking is the waker's last access to anything the waiter owns.
 *
 * A unit's joiner word (bb_unit.joiner) holds its first joiner as such a
 * word; each later one pushes a bb_join_link, on its own stack, tagged with
 * BB_WAITER_MORE, in front (bb_unit_add_joiner): the unit's end wakes them
 * all (bb_unit_wake_joiner).
 */
#ifndef BB_WAITER_H
#define BB_WAITER_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "bb_unit.h"

#define BB_WAITER_POLL ((uintptr_t)1)
#define BB_WAITER_OS ((uintptr_t)2)
#define BB_WAITER_TAGS (BB_WAITER_POLL | BB_WAITER_OS)
#define BB_WAITER_MORE BB_WAITER_TAGS /* a bb_join_link: both tags */

typedef struct {
    uintptr_t waiter; /* one joiner */
    uintptr_t rest;   /* the joiner word it was pushed onto: the others */
} bb_join_link;

typedef struct {
    uint32_t signaled; /* 0 until woken; the futex word */
} bb_os_waiter;

/* The calling OS thread's waiter, not yet signaled: the word an OS waiter
 * sleeps on lives as long as its thread (os_waiter.c says why). */
bb_os_waiter *bb_os_waiter_arm(void);

void bb_os_waiter_wait(bb_os_waiter *w);
/* Same, until `deadline` (absolute, CLOCK_REALTIME); false if it passed
 * first. */
bool bb_os_waiter_wait_until(bb_os_waiter *w, const struct timespec *deadline);
void bb_os_waiter_signal(bb_os_waiter *w);

static inline uintptr_t bb_waiter_of_ult(bb_unit *u)
{
    return (uintptr_t)u;
}

static inline uintptr_t bb_waiter_of_os(bb_os_waiter *w)
{
    return (uintptr_t)w | BB_WAITER_OS;
}

static inline uintptr_t bb_waiter_of_poll(bb_os_waiter *w)
{
    return (uintptr_t)w | BB_WAITER_POLL;
}

/* Make `waiter` wait for the end of `u`, unless it has ended: false then.
 * The first joiner takes the word; a later one pushes `link` (which must
 * live until it is woken) in front of the others. */
static inline bool bb_unit_add_joiner(bb_unit *u, uintptr_t waiter, bb_join_link *link)
{
    uintptr_t seen = bb_load_acquire(&u->joiner);
    for (;;) {
        if (seen == BB_JOIN_DONE)
            return false;
        uintptr_t word = waiter;
        if (seen != BB_JOIN_NOBODY) {
            link->waiter = waiter;
            link->rest = seen;
            word = (uintptr_t)link | BB_WAITER_MORE;
        }
        if (bb_cas_acq_rel(&u->joiner, &seen, word))
            return true;
    }
}

/* One waiter word, never a link (see bb_unit_wake_joiner). */
static inline void bb_waiter_wake(uintptr_t w)
{
    bb_os_waiter *os = (bb_os_waiter *)(w & ~BB_WAITER_TAGS);
    if (w & BB_WAITER_OS)
        bb_os_waiter_signal(os);
    else if (w & BB_WAITER_POLL)
        bb_store_release(&os->signaled, 1u);
    else
        bb_unit_make_ready((bb_unit *)w);
}

#endif
