/*
 * ABT_xstream_barrier_*: a barrier for execution streams (OS threads).
 *
 * Unlike ABT_barrier, a waiter holds its whole ES: it sleeps in the kernel
 * instead of letting the ES run other work, because the point is that every
 * ES has reached this spot.
 */

#include "bb_barrier.h"
#include "bb_runtime.h"

static bb_barrier *barrier_of(ABT_xstream_barrier handle)
{
    return (bb_barrier *)(void *)handle;
}

int ABT_xstream_barrier_create(uint32_t num_waiters, ABT_xstream_barrier *newbarrier)
{
    if (!newbarrier)
        return ABT_ERR_INV_ARG;
    *newbarrier = ABT_XSTREAM_BARRIER_NULL;
    bb_barrier *b;
    int err = bb_barrier_create(num_waiters, &b);
    if (err == ABT_SUCCESS)
        *newbarrier = (ABT_xstream_barrier)(void *)b;
    return err;
}

int ABT_xstream_barrier_free(ABT_xstream_barrier *barrier)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!barrier)
        return ABT_ERR_INV_ARG;
    if (!barrier_of(*barrier))
        return ABT_ERR_INV_XSTREAM_BARRIER;
    int err = bb_barrier_free(barrier_of(*barrier), ABT_ERR_XSTREAM_BARRIER);
    if (err == ABT_SUCCESS)
        *barrier = ABT_XSTREAM_BARRIER_NULL;
    return err;
}

/* Any caller, tasklets included, as in Argobots: each holds its ES. */
int ABT_xstream_barrier_wait(ABT_xstream_barrier barrier)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_barrier *b = barrier_of(barrier);
    if (!b)
        return ABT_ERR_INV_XSTREAM_BARRIER;
    bb_barrier_arrive(b, true);
    return ABT_SUCCESS;
}
