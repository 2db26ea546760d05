/*
 * ABT_eventual_*: a value that is set once (until reset) and waited for.
 *
 * The value buffer, when the eventual has one, follows the header in the same
 * allocation. A static eventual (ABT_EVENTUAL_INITIALIZER) has none: it is
 * set with nbytes == 0 and waiters receive NULL.
 */
#include <stdlib.h>
#include <string.h>

#include "bb_runtime.h"
#include "bb_wait.h"

typedef struct {
    bb_spinlock lock;
    uint32_t ready;      /* set and not yet reset; under lock */
    uint32_t nbytes;     /* size of the value buffer */
    uint32_t timed_inside; /* timed waiters not yet done with it; atomic */
    bb_waitq waiters;
    void *value;         /* the buffer, or NULL */
} bb_eventual;

_Static_assert(sizeof(bb_eventual) <= sizeof(ABT_eventual_memory),
               "ABT_eventual_memory is too small");

static bb_eventual *eventual_of(ABT_eventual handle)
{
    return (bb_eventual *)(void *)handle;
}

int ABT_eventual_create(int nbytes, ABT_eventual *neweventual)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!neweventual || nbytes < 0)
        return ABT_ERR_INV_ARG;
    bb_eventual *e = calloc(1, sizeof(*e) + (size_t)nbytes);
    if (!e)
        return ABT_ERR_MEM;
    e->nbytes = (uint32_t)nbytes;
    e->value = nbytes ? (void *)(e + 1) : NULL;
    *neweventual = (ABT_eventual)(void *)e;
    return ABT_SUCCESS;
}

int ABT_eventual_free(ABT_eventual *eventual)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!eventual)
        return ABT_ERR_INV_ARG;
    bb_eventual *e = eventual_of(*eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    bb_spin_lock(&e->lock);
    bool busy = !bb_waitq_is_empty(&e->waiters);
    bb_spin_unlock(&e->lock);
    if (busy)
        return ABT_ERR_EVENTUAL; /* freeing would strand the waiters */
    if (bb_sync_retire(&e->timed_inside))
        free(e); /* else the last timed waiter to leave frees it */
    *eventual = ABT_EVENTUAL_NULL;
    return ABT_SUCCESS;
}

/* Readiness is always read under the lock: a waiter that returns may free the
 * eventual (or let its stack memory die) at once, so the setter must be done
 * with it, lock included, before any waiter can see it ready. */
static int wait(ABT_eventual eventual, void **value, const struct timespec *deadline)
{
    bb_eventual *e = eventual_of(eventual);
    void *buffer = e->value; /* read now: the setter may free `e` once we are woken */
    int status = BB_WAIT_WOKEN;
    bb_spin_lock(&e->lock);
    if (e->ready) {
        bb_spin_unlock(&e->lock);
    } else {
        bb_wait_node node = {.tag = deadline != NULL, /* counted in timed_inside */
                             .sync_type = ABT_SYNC_EVENT_TYPE_EVENTUAL, .sync_obj = e};
        if (deadline)
            bb_sync_enter(&e->timed_inside);
        status = bb_wait(&e->lock, &e->waiters, &node, deadline);
        if (deadline && bb_sync_leave(&e->timed_inside)) /* the last access to `e` */
            free(e); /* freed meanwhile: we were the last one in it */
    }
    if (status == BB_WAIT_TIMEDOUT)
        return ABT_ERR_COND_TIMEDOUT;
    if (value)
        *value = buffer;
    return ABT_SUCCESS;
}

/* As cond.c's: a timed waiter holds its count even out of the queue, an
 * untimed one nothing. */
void bb_eventual_abandon_waiter(void *obj, bb_wait_node *n)
{
    bb_eventual *e = obj;
    if (!bb_wait_node_is_queued(n) && !n->tag)
        return;
    bb_spin_lock(&e->lock);
    (void)bb_waitq_leave(&e->waiters, n);
    bb_spin_unlock(&e->lock);
    if (n->tag && bb_sync_leave(&e->timed_inside))
        free(e);
}

int ABT_eventual_wait(ABT_eventual eventual, void **value)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!eventual)
        return ABT_ERR_INV_EVENTUAL;
    if (bb_caller_is_tasklet())
        return ABT_ERR_EVENTUAL;
    return wait(eventual, value, NULL);
}

/* Like ABT_cond_timedwait: ABT_ERR_COND_TIMEDOUT when `abstime` (absolute,
 * CLOCK_REALTIME) passes first. */
int ABT_eventual_timedwait(ABT_eventual eventual, void **value, const struct timespec *abstime)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!eventual)
        return ABT_ERR_INV_EVENTUAL;
    if (bb_caller_is_tasklet())
        return ABT_ERR_EVENTUAL;
    if (!abstime)
        return ABT_ERR_INV_ARG;
    return wait(eventual, value, abstime);
}

int ABT_eventual_test(ABT_eventual eventual, void **value, ABT_bool *is_ready)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_eventual *e = eventual_of(eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    if (!is_ready)
        return ABT_ERR_INV_ARG;
    bb_spin_lock(&e->lock);
    bool ready = e->ready;
    bb_spin_unlock(&e->lock);
    if (ready && value)
        *value = e->value;
    *is_ready = ready ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

int ABT_eventual_set(ABT_eventual eventual, void *value, int nbytes)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_eventual *e = eventual_of(eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    if (nbytes < 0 || (nbytes > 0 && !value))
        return ABT_ERR_INV_ARG;
    if ((uint32_t)nbytes > e->nbytes)
        return ABT_ERR_INV_EVENTUAL; /* more than it holds */
    bb_spin_lock(&e->lock);
    if (e->ready) {
        bb_spin_unlock(&e->lock);
        return ABT_ERR_EVENTUAL; /* already set: reset it first */
    }
    if (nbytes)
        memcpy(e->value, value, (size_t)nbytes);
    e->ready = 1;
    bb_wait_node *all = bb_waitq_claim_all(&e->waiters);
    bb_spin_unlock(&e->lock);
    bb_wait_wake_list(all); /* touches the waiters only, never `e` */
    return ABT_SUCCESS;
}

int ABT_eventual_reset(ABT_eventual eventual)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_eventual *e = eventual_of(eventual);
    if (!e)
        return ABT_ERR_INV_EVENTUAL;
    bb_spin_lock(&e->lock);
    e->ready = 0;
    bb_spin_unlock(&e->lock);
    return ABT_SUCCESS;
}
