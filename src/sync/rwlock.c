/*
 * ABT_rwlock_*: many readers or one writer.
 *
 * Waiters queue in arrival order and are granted the lock by the unit that
 * releases it (hand-off), so a woken waiter owns the lock when it runs. As in
 * Argobots, readers come first: a reader waits only while a writer holds the
 * lock, so a reader may take it again while holding it (writers may starve
 * under a constant stream of readers). When the lock becomes free, the writer
 * at the head of the queue gets it; or, if a reader is at the head, every
 * queued reader does, as they would have if they had come now.
 */
#include <stdlib.h>

#include "bb_mutex.h"
#include "bb_runtime.h"
#include "bb_wait.h"

enum { READER, WRITER };

typedef struct {
    bb_spinlock lock;
    uint32_t readers;          /* holding it now */
    uintptr_t writer;          /* token of the writer holding it, or 0 */
    bb_waitq waiters;
} bb_rwlock;

static bb_rwlock *rwlock_of(ABT_rwlock handle)
{
    return (bb_rwlock *)(void *)handle;
}

int ABT_rwlock_create(ABT_rwlock *newrwlock)
{
    if (!newrwlock)
        return ABT_ERR_INV_ARG;
    *newrwlock = ABT_RWLOCK_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_rwlock *l = calloc(1, sizeof(*l));
    if (!l)
        return ABT_ERR_MEM;
    *newrwlock = (ABT_rwlock)(void *)l;
    return ABT_SUCCESS;
}

int ABT_rwlock_free(ABT_rwlock *rwlock)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!rwlock)
        return ABT_ERR_INV_ARG;
    bb_rwlock *l = rwlock_of(*rwlock);
    if (!l)
        return ABT_ERR_INV_RWLOCK;
    bb_spin_lock(&l->lock);
    bool busy = !bb_waitq_is_empty(&l->waiters);
    bb_spin_unlock(&l->lock);
    if (busy)
        return ABT_ERR_RWLOCK;
    free(l);
    *rwlock = ABT_RWLOCK_NULL;
    return ABT_SUCCESS;
}

/* Queue the caller (l->lock held) until an unlocker grants it the lock. */
static int wait_for_grant(bb_rwlock *l, uint32_t kind, uintptr_t token)
{
    bb_wait_node node = {.tag = kind, .token = token, .sync_type = ABT_SYNC_EVENT_TYPE_RWLOCK,
                         .sync_obj = l};
    bb_wait(&l->lock, &l->waiters, &node, NULL);
    return ABT_SUCCESS;
}

/* The checks of rdlock and wrlock, in Argobots' order. */
static int check_locker(bb_rwlock *l)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!l)
        return ABT_ERR_INV_RWLOCK;
    if (bb_caller_is_tasklet())
        return ABT_ERR_RWLOCK; /* may have to wait, which a tasklet cannot */
    return ABT_SUCCESS;
}

int ABT_rwlock_rdlock(ABT_rwlock rwlock)
{
    bb_rwlock *l = rwlock_of(rwlock);
    int err = check_locker(l);
    if (err != ABT_SUCCESS)
        return err;
    bb_spin_lock(&l->lock);
    if (l->writer)
        return wait_for_grant(l, READER, 0);
    l->readers++;
    bb_spin_unlock(&l->lock);
    return ABT_SUCCESS;
}

int ABT_rwlock_wrlock(ABT_rwlock rwlock)
{
    bb_rwlock *l = rwlock_of(rwlock);
    int err = check_locker(l);
    if (err != ABT_SUCCESS)
        return err;
    uintptr_t token = bb_self_token();
    bb_spin_lock(&l->lock);
    if (l->writer || l->readers)
        return wait_for_grant(l, WRITER, token);
    l->writer = token;
    bb_spin_unlock(&l->lock);
    return ABT_SUCCESS;
}

/* The lock is free (l->lock held): grant it to the head of the queue.
 * Returns the granted waiters, to wake once l->lock is dropped. */
static bb_wait_node *grant_next(bb_rwlock *l)
{
    bb_wait_node *head = l->waiters.head;
    if (!head)
        return NULL;
    if (head->tag == WRITER) {
        bb_waitq_pop(&l->waiters);
        l->writer = head->token;
        head->next = NULL;
        bb_store_relaxed(&head->status, (uint32_t)BB_WAIT_WOKEN);
        return head;
    }
    bb_waitq readers = {0}, writers = {0};
    for (bb_wait_node *n; (n = bb_waitq_pop(&l->waiters));) {
        bb_waitq_push(n->tag == READER ? &readers : &writers, n);
        l->readers += n->tag == READER;
    }
    l->waiters = writers;
    return bb_waitq_claim_all(&readers);
}

/* A waiter out of the queue was granted the lock, which it never took: the
 * grant is undone (the lock is held for it, so it is still there). Nobody else is granted it here: the finalize wakes nobody,
 * and whoever still waits is a ULT abandoned too. */
void bb_rwlock_abandon_waiter(void *obj, bb_wait_node *n)
{
    bb_rwlock *l = obj;
    bb_spin_lock(&l->lock);
    if (!bb_waitq_leave(&l->waiters, n)) {
        if (n->tag == READER)
            l->readers--;
        else if (l->writer == n->token)
            l->writer = 0;
    }
    bb_spin_unlock(&l->lock);
}

int ABT_rwlock_unlock(ABT_rwlock rwlock)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_rwlock *l = rwlock_of(rwlock);
    if (!l)
        return ABT_ERR_INV_RWLOCK;
    uintptr_t token = bb_self_token();
    bb_spin_lock(&l->lock);
    if (l->writer == token)
        l->writer = 0;
    else if (l->readers > 0)
        l->readers--;
    else {
        bb_spin_unlock(&l->lock);
        return ABT_ERR_RWLOCK; /* the caller does not hold it */
    }
    bb_wait_node *granted = l->writer || l->readers ? NULL : grant_next(l);
    bb_spin_unlock(&l->lock);
    bb_wait_wake_list(granted);
    return ABT_SUCCESS;
}
