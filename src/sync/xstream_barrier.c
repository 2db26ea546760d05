/*
 * ABT_xstream_barrier_*: a barrier for execution streams (OS threads).
 *
 * Unlike ABT_barrier, a waiter holds its whole ES: it sleeps in the kernel
 * instead of letting the ES run other work, because the point is that every
 * ES has reached this spot.
 */
#include <stdlib.h>

#include "bb_runtime.h"
#include "bb_wait.h"

typedef struct {
    bb_spinlock lock;
    uint32_t num_waiters;
    uint32_t arrived;      /* in this round; under lock */
    bb_waitq waiters;
} bb_xstream_barrier;

static bb_xstream_barrier *barrier_of(ABT_xstream_barrier handle)
{
    return (bb_xstream_barrier *)(void *)handle;
}

int ABT_xstream_barrier_create(uint32_t num_waiters, ABT_xstream_barrier *newbarrier)
{
    if (!newbarrier)
        return ABT_ERR_INV_ARG;
    *newbarrier = ABT_XSTREAM_BARRIER_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (num_waiters == 0)
        return ABT_ERR_INV_ARG;
    bb_xstream_barrier *b = calloc(1, sizeof(*b));
    if (!b)
        return ABT_ERR_MEM;
    b->num_waiters = num_waiters;
    *newbarrier = (ABT_xstream_barrier)(void *)b;
    return ABT_SUCCESS;
}

int ABT_xstream_barrier_free(ABT_xstream_barrier *barrier)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!barrier)
        return ABT_ERR_INV_ARG;
    bb_xstream_barrier *b = barrier_of(*barrier);
    if (!b)
        return ABT_ERR_INV_XSTREAM_BARRIER;
    bb_spin_lock(&b->lock);
    bool busy = b->arrived != 0;
    bb_spin_unlock(&b->lock);
    if (busy)
        return ABT_ERR_XSTREAM_BARRIER;
    free(b);
    *barrier = ABT_XSTREAM_BARRIER_NULL;
    return ABT_SUCCESS;
}

int ABT_xstream_barrier_wait(ABT_xstream_barrier barrier)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_xstream_barrier *b = barrier_of(barrier);
    if (!b)
        return ABT_ERR_INV_XSTREAM_BARRIER;
    bb_spin_lock(&b->lock);
    if (++b->arrived < b->num_waiters) {
        bb_wait_node node = {0};
        bb_wait_in_kernel(&b->lock, &b->waiters, &node);
        return ABT_SUCCESS;
    }
    b->arrived = 0;
    bb_wait_node *all = bb_waitq_claim_all(&b->waiters);
    bb_spin_unlock(&b->lock);
    bb_wait_wake_list(all);
    return ABT_SUCCESS;
}
