/*
 * Who waits for an event, and how to wake it.
 *
 * A waiter is a word: either a pointer to a blocked ULT (low bits zero), or a
 * pointer to a bb_os_waiter tagged with BB_WAITER_OS, for a caller that cannot
 * switch contexts (an external thread) and sleeps in the kernel instead.
 */
#ifndef BB_WAITER_H
#define BB_WAITER_H

#include <stdint.h>

#include "bb_unit.h"

#define BB_WAITER_OS ((uintptr_t)2)

typedef struct {
    uint32_t signaled; /* 0 until woken; the futex word */
} bb_os_waiter;

void bb_os_waiter_wait(bb_os_waiter *w);
void bb_os_waiter_signal(bb_os_waiter *w);

static inline uintptr_t bb_waiter_of_ult(bb_unit *u)
{
    return (uintptr_t)u;
}

static inline uintptr_t bb_waiter_of_os(bb_os_waiter *w)
{
    return (uintptr_t)w | BB_WAITER_OS;
}

static inline void bb_waiter_wake(uintptr_t w)
{
    if (w & BB_WAITER_OS)
        bb_os_waiter_signal((bb_os_waiter *)(w & ~BB_WAITER_OS));
    else
        bb_unit_make_ready((bb_unit *)w);
}

#endif
