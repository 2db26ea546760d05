/*
 * bb_wait: how each kind of caller waits in a synchronization object's queue
 * (see bb_wait.h for the protocol between waiters and wakers).
 */
#include <sched.h>
#include <stdint.h>

#include "bb_pool.h"
#include "bb_unit.h"
#include "bb_wait.h"
#include "bb_xstream.h"

void bb_waitq_remove(bb_waitq *q, bb_wait_node *n)
{
    if (n->prev)
        n->prev->next = n->next;
    else
        q->head = n->next;
    if (n->next)
        n->next->prev = n->prev;
    else
        q->tail = n->prev;
}

bool bb_waitq_leave(bb_waitq *q, bb_wait_node *n)
{
    if (bb_load_relaxed(&n->status) != BB_WAIT_PENDING)
        return false;
    bb_waitq_remove(q, n);
    bb_store_relaxed(&n->status, (uint32_t)BB_WAIT_TIMEDOUT); /* out, and by no waker */
    return true;
}

bb_wait_node *bb_waitq_claim_all(bb_waitq *q)
{
    bb_wait_node *list = q->head;
    q->head = q->tail = NULL;
    for (bb_wait_node *n = list; n; n = n->next)
        bb_store_relaxed(&n->status, (uint32_t)BB_WAIT_WOKEN);
    return list;
}

void bb_wait_wake_list(bb_wait_node *list)
{
    while (list) {
        bb_wait_node *next = list->next; /* `list` may be gone once woken */
        bb_wait_wake(list->waiter);
        list = next;
    }
}

/* ---- the caller's side ------------------------------------------------------ */

/* Whoever ends the wait after the deadline passed: take the node out unless a
 * waker claimed it first. */
static int expire(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n)
{
    bb_spin_lock(lock);
    if (bb_load_relaxed(&n->status) == BB_WAIT_PENDING) {
        bb_waitq_remove(q, n);
        bb_store_relaxed(&n->status, (uint32_t)BB_WAIT_TIMEDOUT);
    }
    bb_spin_unlock(lock);
    return (int)bb_load_acquire(&n->status);
}

/* A caller that cannot switch sleeps in the kernel. */
static int sleep_in_kernel(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n,
                           const struct timespec *deadline, bb_wait_node *wake)
{
    bb_os_waiter *w = bb_os_waiter_arm();
    n->waiter = bb_waiter_of_os(w);
    bb_waitq_push(q, n);
    bb_spin_unlock(lock);
    bb_wait_wake_list(wake);
    if (!deadline) {
        bb_os_waiter_wait(w);
        return BB_WAIT_WOKEN;
    }
    if (bb_os_waiter_wait_until(w, deadline))
        return BB_WAIT_WOKEN;
    int status = expire(lock, q, n);
    if (status == BB_WAIT_WOKEN)
        bb_os_waiter_wait(w); /* the waker is about to signal `w`: let it finish */
    return status;
}

void bb_wait_in_kernel(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n)
{
    (void)sleep_in_kernel(lock, q, n, NULL, NULL);
}

/* A ULT whose deadline the alarm thread cannot serve (its pool takes no
 * pushes from other threads) yields until woken or out of time. */
static int poll_until(bb_unit *self, bb_spinlock *lock, bb_waitq *q, bb_wait_node *n,
                      const struct timespec *deadline, bb_wait_node *wake)
{
    bb_os_waiter flag = {0};
    n->waiter = bb_waiter_of_poll(&flag);
    bb_waitq_push(q, n);
    self->wait_target = n; /* for bb_wait_abandon, as a blocked ULT's */
    bb_spin_unlock(lock);
    bb_wait_wake_list(wake);
    bool expired = false;
    while (!bb_load_acquire(&flag.signaled)) {
        if (!expired && bb_timespec_passed(deadline)) {
            expired = true;
            if (expire(lock, q, n) == BB_WAIT_TIMEDOUT)
                break;
        }
        bb_ult_yield(self); /* woken: wait until the waker is done with `flag` */
    }
    self->wait_target = NULL;
    return (int)bb_load_acquire(&n->status);
}

static int block_ult(bb_unit *self, bb_spinlock *lock, bb_waitq *q, bb_wait_node *n,
                     const struct timespec *deadline, bb_wait_node *wake)
{
    n->waiter = bb_waiter_of_ult(self);
    bb_waitq_push(q, n);
    if (!deadline) {
        bb_ult_block_releasing(self, n, lock, wake);
        return BB_WAIT_WOKEN;
    }
    bb_alarm alarm = {.deadline = *deadline, .lock = lock, .q = q, .node = n};
    if (!bb_alarm_arm(&alarm)) {
        bb_waitq_remove(q, n);
        return poll_until(self, lock, q, n, deadline, wake);
    }
    bb_ult_block_releasing(self, n, lock, wake);
    bb_alarm_disarm(&alarm);
    return (int)bb_load_acquire(&n->status);
}

/* The alarm thread wakes a ULT by pushing it into its pool. A ULT of a
 * private pool polls instead: a push from the alarm thread would have to go
 * through its ES's inbox and the runtime lock (hand_to_last_es), which the
 * alarm thread stays clear of. */
static bool pool_takes_foreign_pushes(const bb_unit *u)
{
    return u->pool && u->pool->access != ABT_POOL_ACCESS_PRIV;
}

#define TIME_MAX_ ((time_t)INT64_MAX)

/* Argobots reads abstime as seconds + nanoseconds, so a tv_nsec outside
 * [0, 1e9) is a valid time; the kernel wants it normalized. */
static struct timespec normalized(const struct timespec *t)
{
    struct timespec n = {0, t->tv_nsec % 1000000000L};
    time_t carry = t->tv_nsec / 1000000000L;
    if (n.tv_nsec < 0) {
        n.tv_nsec += 1000000000L;
        carry--;
    }
    if (__builtin_add_overflow(t->tv_sec, carry, &n.tv_sec)) /* "for ever" */
        n = carry > 0 ? (struct timespec){TIME_MAX_, 999999999L} : (struct timespec){0, 0};
    return n;
}

int bb_wait(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n, const struct timespec *abstime)
{
    return bb_wait_then_wake(lock, q, n, abstime, NULL);
}

int bb_wait_then_wake(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n,
                      const struct timespec *abstime, bb_wait_node *wake)
{
    struct timespec d;
    const struct timespec *deadline = NULL;
    if (abstime) {
        d = normalized(abstime);
        deadline = &d;
    }
    bb_unit *self = bb_self_unit();
    if (!self || bb_wait_holds_es())
        return sleep_in_kernel(lock, q, n, deadline, wake);
    /* A ULT cancelled meanwhile must still finish its wait: its node, or its
     * alarm, is on its stack and in the object's or the alarm thread's hands. */
    bb_store_relaxed(&self->in_wait, 1u);
    int status = deadline && !pool_takes_foreign_pushes(self)
                     ? poll_until(self, lock, q, n, deadline, wake)
                     : block_ult(self, lock, q, n, deadline, wake);
    bb_store_relaxed(&self->in_wait, 0u);
    return status;
}

/* A unit inside bb_wait that is not running has its node in wait_target: a
 * blocked ULT (bb_ult_block_releasing) or a polling one (poll_until). Nothing
 * else runs at the finalize, so the node's status stays as read. Only a
 * queued node's object is sure to be alive (it refuses to be freed); a woken
 * waiter's may be gone, and its part touches it only where something keeps
 * it: a timed waiter's count, a rwlock granted to the waiter. */
void bb_wait_abandon(bb_unit *u)
{
    if (!bb_load_relaxed(&u->in_wait) || !u->wait_target)
        return;
    bb_wait_node *n = (bb_wait_node *)(uintptr_t)u->wait_target;
    void *obj = (void *)(uintptr_t)n->sync_obj;
    switch (n->sync_type) {
    case ABT_SYNC_EVENT_TYPE_MUTEX:
        bb_mutex_abandon_waiter(obj, n);
        break;
    case ABT_SYNC_EVENT_TYPE_COND:
        bb_cond_abandon_waiter(obj, n);
        break;
    case ABT_SYNC_EVENT_TYPE_RWLOCK:
        bb_rwlock_abandon_waiter(obj, n);
        break;
    case ABT_SYNC_EVENT_TYPE_BARRIER:
        bb_barrier_abandon_waiter(obj, n);
        break;
    case ABT_SYNC_EVENT_TYPE_FUTURE:
        bb_future_abandon_waiter(obj, n);
        break;
    case ABT_SYNC_EVENT_TYPE_EVENTUAL:
        bb_eventual_abandon_waiter(obj, n);
        break;
    default:
        break;
    }
}

bool bb_wait_holds_es(void)
{
    bb_unit *self = bb_self_unit();
    return self && (!bb_unit_is_ult(self) || (self->flags & BB_UNIT_SCHED));
}

bool bb_caller_is_tasklet(void)
{
    bb_unit *self = bb_self_unit();
    return self && !bb_unit_is_ult(self);
}
