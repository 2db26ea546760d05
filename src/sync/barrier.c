/*
 * ABT_barrier_*: work units wait until `num_waiters` of them have arrived.
 *
 * The last to arrive wakes the others and the barrier is ready for the next
 * round at once: a unit that hurries into the next round queues behind a
 * fresh count and cannot pass early.
 */
#include <stdlib.h>

#include "bb_barrier.h"
#include "bb_runtime.h"

int bb_barrier_create(uint32_t num_waiters, bb_barrier **out)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (num_waiters == 0)
        return ABT_ERR_INV_ARG;
    bb_barrier *b = calloc(1, sizeof(*b));
    if (!b)
        return ABT_ERR_MEM;
    b->num_waiters = num_waiters;
    *out = b;
    return ABT_SUCCESS;
}

bool bb_barrier_is_busy(bb_barrier *b)
{
    bb_spin_lock(&b->lock);
    bool busy = b->arrived != 0;
    bb_spin_unlock(&b->lock);
    return busy;
}

int bb_barrier_free(bb_barrier *b, int busy_error)
{
    if (bb_barrier_is_busy(b))
        return busy_error; /* freeing would strand the waiters */
    free(b);
    return ABT_SUCCESS;
}

void bb_barrier_arrive(bb_barrier *b, bool hold_es)
{
    bb_spin_lock(&b->lock);
    if (++b->arrived < b->num_waiters) {
        bb_wait_node node = {.sync_type = ABT_SYNC_EVENT_TYPE_BARRIER, .sync_obj = b};
        if (hold_es)
            bb_wait_in_kernel(&b->lock, &b->waiters, &node);
        else
            bb_wait(&b->lock, &b->waiters, &node, NULL);
        return;
    }
    b->arrived = 0;
    bb_wait_node *all = bb_waitq_claim_all(&b->waiters);
    bb_spin_unlock(&b->lock);
    bb_wait_wake_list(all);
}

/* A waiter still queued had arrived in this round; one out of the queue was
 * released with its round and holds nothing (the barrier may be freed). */
void bb_barrier_abandon_waiter(void *obj, bb_wait_node *n)
{
    bb_barrier *b = obj;
    if (!bb_wait_node_is_queued(n))
        return;
    bb_spin_lock(&b->lock);
    if (bb_waitq_leave(&b->waiters, n))
        b->arrived--;
    bb_spin_unlock(&b->lock);
}

static bb_barrier *barrier_of(ABT_barrier handle)
{
    return (bb_barrier *)(void *)handle;
}

int ABT_barrier_create(uint32_t num_waiters, ABT_barrier *newbarrier)
{
    if (!newbarrier)
        return ABT_ERR_INV_ARG;
    *newbarrier = ABT_BARRIER_NULL;
    bb_barrier *b;
    int err = bb_barrier_create(num_waiters, &b);
    if (err == ABT_SUCCESS)
        *newbarrier = (ABT_barrier)(void *)b;
    return err;
}

int ABT_barrier_reinit(ABT_barrier barrier, uint32_t num_waiters)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_barrier *b = barrier_of(barrier);
    if (!b)
        return ABT_ERR_INV_BARRIER;
    if (num_waiters == 0)
        return ABT_ERR_INV_ARG;
    bb_spin_lock(&b->lock);
    bool busy = b->arrived != 0;
    if (!busy)
        b->num_waiters = num_waiters;
    bb_spin_unlock(&b->lock);
    return busy ? ABT_ERR_BARRIER : ABT_SUCCESS;
}

int ABT_barrier_free(ABT_barrier *barrier)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!barrier)
        return ABT_ERR_INV_ARG;
    if (!barrier_of(*barrier))
        return ABT_ERR_INV_BARRIER;
    int err = bb_barrier_free(barrier_of(*barrier), ABT_ERR_BARRIER);
    if (err == ABT_SUCCESS)
        *barrier = ABT_BARRIER_NULL;
    return err;
}

int ABT_barrier_wait(ABT_barrier barrier)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_barrier *b = barrier_of(barrier);
    if (!b)
        return ABT_ERR_INV_BARRIER;
    if (bb_caller_is_tasklet())
        return ABT_ERR_BARRIER; /* may have to wait, which a tasklet cannot */
    bb_barrier_arrive(b, false);
    return ABT_SUCCESS;
}

int ABT_barrier_get_num_waiters(ABT_barrier barrier, uint32_t *num_waiters)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_barrier *b = barrier_of(barrier);
    if (!b)
        return ABT_ERR_INV_BARRIER;
    if (!num_waiters)
        return ABT_ERR_INV_ARG;
    bb_spin_lock(&b->lock);
    *num_waiters = b->num_waiters;
    bb_spin_unlock(&b->lock);
    return ABT_SUCCESS;
}
