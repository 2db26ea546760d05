/*
 * The barrier shared by ABT_barrier (work units) and ABT_xstream_barrier
 * (execution streams), src/sync/barrier.c. They differ only in how a waiter
 * waits: a work unit lets its ES run other work, an ES holds its thread.
 */
#ifndef BB_BARRIER_H
#define BB_BARRIER_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_wait.h"

typedef struct {
    bb_spinlock lock;
    uint32_t num_waiters;  /* how many make a round; under lock */
    uint32_t arrived;      /* in this round; under lock */
    bb_waitq waiters;
} bb_barrier;

/* The checks and work both public creates and frees share; the callers
 * check their own handles and pointers. */
int bb_barrier_create(uint32_t num_waiters, bb_barrier **out);
int bb_barrier_free(bb_barrier *b, int busy_error);
/* Units wait in it now (it may not be freed or changed). */
bool bb_barrier_is_busy(bb_barrier *b);
/* Arrive and wait for the round to fill; `hold_es`: sleep in the kernel even
 * for a ULT. */
void bb_barrier_arrive(bb_barrier *b, bool hold_es);

#endif
