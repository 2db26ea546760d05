/*
 * ABT_cond_*: a queue of waiters under a spinlock.
 *
 * A waiter queues itself and releases the mutex while holding the condition's
 * lock, so a signal that follows the release cannot miss it. It takes the
 * mutex back after it is woken (or timed out), as pthreads do. All waiters
 * at a time must use the same mutex; the condition forgets the mutex when
 * its queue empties.
 *
 * A signal sent while the signaller holds the mutex would wake a waiter only
 * for it to block on the mutex at once. Instead, the waiter moves straight
 * into the mutex's queue, and the unlock wakes it (wait morphing).
 * Only waiters without a deadline move: a deadline is tied to the condition.
 */
#include <stdlib.h>

#include "bb_mutex.h"
#include "bb_runtime.h"
#include "bb_wait.h"

typedef struct {
    bb_spinlock lock;
    uint32_t timed_inside; /* timed waiters not yet done with the cond; atomic */
    bb_mutex *mutex;    /* the waiters' mutex while any wait; under lock */
    bb_waitq waiters;
} bb_cond;

_Static_assert(sizeof(bb_cond) <= sizeof(ABT_cond_memory), "ABT_cond_memory is too small");

static bb_cond *cond_of(ABT_cond handle)
{
    return (bb_cond *)(void *)handle;
}

int ABT_cond_create(ABT_cond *newcond)
{
    if (!newcond)
        return ABT_ERR_INV_ARG;
    *newcond = ABT_COND_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_cond *c = calloc(1, sizeof(*c));
    if (!c)
        return ABT_ERR_MEM;
    *newcond = (ABT_cond)(void *)c;
    return ABT_SUCCESS;
}

int ABT_cond_free(ABT_cond *cond)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!cond)
        return ABT_ERR_INV_ARG;
    bb_cond *c = cond_of(*cond);
    if (!c)
        return ABT_ERR_INV_COND;
    bb_spin_lock(&c->lock);
    bool busy = !bb_waitq_is_empty(&c->waiters);
    bb_spin_unlock(&c->lock);
    if (busy)
        return ABT_ERR_COND;
    if (bb_sync_retire(&c->timed_inside))
        free(c); /* else the last timed waiter to leave frees it */
    *cond = ABT_COND_NULL;
    return ABT_SUCCESS;
}

/* Tag of a waiter that a signal may move into the mutex's queue instead of
 * waking it (release_waiter): one without a deadline (a timed one must be
 * free to leave at its deadline) that does not hold its ES while it sleeps
 * (a scheduler: while such a waiter is queued on the mutex, every unlock
 * must wake all the queue, and mutex.c counts only those that queue
 * themselves; a moved one would stay queued behind ULTs of its own ES,
 * which cannot run while it sleeps). */
enum { MOVABLE = 1, TIMED = 2 /* counted in timed_inside */ };

/* Wake `n`, just taken out of the queue (c->lock held), or move it to the
 * mutex's queue while the mutex is held (by the caller, or by anybody for a
 * plain mutex): waking it now would only make it wait for the mutex. Returns
 * what to wake once c->lock is dropped. */
static uintptr_t release_waiter(bb_cond *c, bb_wait_node *n)
{
    if ((n->tag & MOVABLE) && bb_mutex_is_held_by(c->mutex, bb_mutex_me(c->mutex)) &&
        bb_mutex_add_waiter(c->mutex, n))
        return 0;
    return bb_wait_claim(n);
}

/* The queue emptied: a later waiter may bring another mutex. */
static void forget_mutex_if_idle(bb_cond *c)
{
    if (bb_waitq_is_empty(&c->waiters))
        c->mutex = NULL;
}

static int wait(bb_cond *c, bb_mutex *m, const struct timespec *deadline)
{
    uintptr_t me = bb_mutex_me(m);
    if (!bb_mutex_is_held_by(m, me))
        return ABT_ERR_MUTEX;

    bb_spin_lock(&c->lock);
    if (c->mutex && c->mutex != m && !bb_waitq_is_empty(&c->waiters)) {
        bb_spin_unlock(&c->lock);
        return ABT_ERR_INV_MUTEX; /* other waiters use another mutex */
    }
    c->mutex = m;
    if (deadline)
        bb_sync_enter(&c->timed_inside);
    uint32_t nesting;
    bb_wait_node *let_in = bb_mutex_unlock_all(m, &nesting);
    bb_wait_node node = {.tag = deadline ? TIMED : !bb_wait_holds_es() ? MOVABLE : 0,
                         .sync_type = ABT_SYNC_EVENT_TYPE_COND, .sync_obj = c};
    int status = bb_wait_then_wake(&c->lock, &c->waiters, &node, deadline, let_in);
    if (status == BB_WAIT_TIMEDOUT) {
        bb_spin_lock(&c->lock);
        forget_mutex_if_idle(c);
        bb_spin_unlock(&c->lock);
    }
    if (deadline && bb_sync_leave(&c->timed_inside)) /* the last access to `c` */
        free(c); /* freed meanwhile: we were the last one in it */
    bb_mutex_relock(m, me, nesting);
    return status == BB_WAIT_TIMEDOUT ? ABT_ERR_COND_TIMEDOUT : ABT_SUCCESS;
}

/* A timed waiter may be out of the queue already (woken or timed out, and
 * never run since): it still holds its count, which keeps the cond. An
 * untimed one out of the queue holds nothing (the cond may be freed by now).
 * A moved one is the mutex's. */
void bb_cond_abandon_waiter(void *obj, bb_wait_node *n)
{
    bb_cond *c = obj;
    if (!bb_wait_node_is_queued(n) && !(n->tag & TIMED))
        return;
    bb_spin_lock(&c->lock);
    (void)bb_waitq_leave(&c->waiters, n);
    forget_mutex_if_idle(c);
    bb_spin_unlock(&c->lock);
    if ((n->tag & TIMED) && bb_sync_leave(&c->timed_inside))
        free(c);
}

/* As in Argobots, a tasklet may not wait without a deadline (checked first),
 * but may wait with one: it then sleeps in the kernel, holding its ES. */
int ABT_cond_wait(ABT_cond cond, ABT_mutex mutex)
{
    if (bb_caller_is_tasklet())
        return ABT_ERR_COND;
    if (!cond)
        return ABT_ERR_INV_COND;
    if (!mutex)
        return ABT_ERR_INV_MUTEX;
    return wait(cond_of(cond), bb_mutex_of(mutex), NULL);
}

int ABT_cond_timedwait(ABT_cond cond, ABT_mutex mutex, const struct timespec *abstime)
{
    if (!cond)
        return ABT_ERR_INV_COND;
    if (!mutex)
        return ABT_ERR_INV_MUTEX;
    if (!abstime)
        return ABT_ERR_INV_ARG;
    return wait(cond_of(cond), bb_mutex_of(mutex), abstime);
}

int ABT_cond_signal(ABT_cond cond)
{
    bb_cond *c = cond_of(cond);
    if (!c)
        return ABT_ERR_INV_COND;
    bb_spin_lock(&c->lock);
    bb_wait_node *n = bb_waitq_pop(&c->waiters);
    uintptr_t w = n ? release_waiter(c, n) : 0;
    forget_mutex_if_idle(c);
    bb_spin_unlock(&c->lock);
    bb_wait_wake(w);
    return ABT_SUCCESS;
}

int ABT_cond_broadcast(ABT_cond cond)
{
    bb_cond *c = cond_of(cond);
    if (!c)
        return ABT_ERR_INV_COND;
    bb_spin_lock(&c->lock);
    bool morph = c->mutex && bb_mutex_is_held_by(c->mutex, bb_mutex_me(c->mutex));
    bb_waitq to_wake = {0};
    for (bb_wait_node *n; (n = bb_waitq_pop(&c->waiters));) {
        if (!(morph && (n->tag & MOVABLE) && bb_mutex_add_waiter(c->mutex, n)))
            bb_waitq_push(&to_wake, n); /* see release_waiter */
    }
    bb_wait_node *all = bb_waitq_claim_all(&to_wake);
    c->mutex = NULL;
    bb_spin_unlock(&c->lock);
    bb_wait_wake_list(all);
    return ABT_SUCCESS;
}
