/*
 * Waiting in a synchronization object: the one mechanism under mutexes,
 * condition variables, rwlocks, barriers, futures and eventuals.
 *
 * Each object guards its state and a queue of wait nodes with one spinlock.
 * A caller that must wait puts a node (on its own stack) in the queue and
 * calls bb_wait with the lock held; bb_wait releases it. How the caller then
 * waits depends on who it is:
 * - a ULT blocks: its ES runs other work. The lock is released only after
 *   its context is saved, so a waker can never see a half-blocked ULT.
 * - a ULT with a deadline that the alarm thread cannot serve (its pool is
 *   private, or no alarm could be armed) stays ready and polls, yielding
 *   (wait.c, poll_until). The lock is released at once.
 * - any other caller (external thread, tasklet, scheduler) sleeps in the
 *   kernel: it cannot switch, and sleeping is cheaper than spinning.
 * A waker pops nodes under the lock, claims each one (bb_wait_claim), drops
 * the lock, then wakes what it claimed (bb_wait_wake). A node's status says
 * who ended the wait, decided under the lock: a waker, or the deadline.
 */
#ifndef BB_WAIT_H
#define BB_WAIT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "bb_atomic.h"
#include "bb_waiter.h"

enum bb_wait_status {
    BB_WAIT_PENDING = 0,  /* in the queue */
    BB_WAIT_WOKEN = 1,    /* taken out by a waker */
    BB_WAIT_TIMEDOUT = 2  /* taken out because its deadline passed */
};

typedef struct bb_wait_node {
    struct bb_wait_node *next;
    struct bb_wait_node *prev; /* while queued: so that a timed-out node leaves in O(1) */
    uintptr_t waiter;   /* what to wake (bb_waiter.h) */
    uint32_t status;    /* bb_wait_status; atomic */
    uint32_t tag;       /* the object's own use (rwlock: reader or writer) */
    uintptr_t token;    /* the object's own use (rwlock: the waiting writer's token) */
    int sync_type;      /* ABT_sync_event_type of the object whose queue holds it */
    const void *sync_obj; /* that object's handle (for tools, and bb_wait_abandon) */
} bb_wait_node;

typedef struct {
    bb_wait_node *head;
    bb_wait_node *tail;
} bb_waitq;

static inline bool bb_waitq_is_empty(const bb_waitq *q)
{
    return q->head == NULL;
}

static inline void bb_waitq_push(bb_waitq *q, bb_wait_node *n)
{
    n->next = NULL;
    n->prev = q->tail;
    bb_store_relaxed(&n->status, (uint32_t)BB_WAIT_PENDING);
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
}

static inline bb_wait_node *bb_waitq_pop(bb_waitq *q)
{
    bb_wait_node *n = q->head;
    if (n) {
        q->head = n->next;
        if (q->head)
            q->head->prev = NULL;
        else
            q->tail = NULL;
    }
    return n;
}

/* Take `n`, which is in `q` (its status is still BB_WAIT_PENDING under the
 * object's lock), out of it, in O(1): timed waiters leave in any order, and
 * a walk from the head made each of N expiries cost O(N), under the lock. */
void bb_waitq_remove(bb_waitq *q, bb_wait_node *n);

/* A node just popped by a waker, under the object's lock: mark it woken and
 * return what bb_wait_wake needs once the lock is dropped. The node itself
 * may be gone by then. */
static inline uintptr_t bb_wait_claim(bb_wait_node *n)
{
    uintptr_t w = n->waiter;
    bb_store_release(&n->status, (uint32_t)BB_WAIT_WOKEN);
    return w;
}

static inline void bb_wait_wake(uintptr_t w)
{
    if (w)
        bb_waiter_wake(w);
}

/* Claim every node of `q` (the object's lock is held): each is marked
 * WOKEN and the queue ends empty. The nodes stay chained in a private list;
 * wake them with bb_wait_wake_list once the lock is dropped. */
bb_wait_node *bb_waitq_claim_all(bb_waitq *q);
void bb_wait_wake_list(bb_wait_node *list);

/*
 * Wait in `q` until a waker claims `n`, or until `deadline` (absolute,
 * CLOCK_REALTIME, as ABT_cond_timedwait's abstime; NULL: no deadline).
 * The caller holds `lock` and has filled n->tag/n->token if its object uses
 * them; bb_wait pushes `n` and releases `lock`. Returns BB_WAIT_WOKEN or
 * BB_WAIT_TIMEDOUT; `lock` is not held on return.
 */
int bb_wait(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n, const struct timespec *deadline);

/* Same, and wake `wake` (claimed nodes of another object, chained through
 * `next`, as bb_waitq_claim_all leaves them; NULL: none) as soon as `lock`
 * is dropped: a condition wait lets its mutex's next holder in without
 * running that wake under the condition's lock. */
int bb_wait_then_wake(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n,
                      const struct timespec *deadline, bb_wait_node *wake);

/* Same without a deadline, but always asleep in the kernel, holding the ES. */
void bb_wait_in_kernel(bb_spinlock *lock, bb_waitq *q, bb_wait_node *n);

/* Whether the caller, if it waits, sleeps in the kernel while it holds an
 * ES (a tasklet or a scheduler), so that nothing else runs there. */
bool bb_wait_holds_es(void);

/* A tasklet must run to completion: the blocking calls that Argobots refuses
 * to tasklets (cond_wait, rwlock, barrier, future and eventual waits) check
 * this and return their object's error code. */
bool bb_caller_is_tasklet(void);

/* A timed waiter may still touch its object after a waker took its node out
 * of the queue (to time out, under the object's lock), so the object counts
 * them. Freeing marks the object dying; whoever leaves it last, the freer or
 * a timed waiter, releases its memory. Waiting for them instead could wait
 * for ever: a woken waiter may need the freer's own ES to run. */
#define BB_SYNC_DYING 0x80000000u

static inline void bb_sync_enter(uint32_t *inside)
{
    __atomic_fetch_add(inside, 1u, __ATOMIC_RELAXED);
}

/* True if the caller must free the object now. */
static inline bool bb_sync_leave(uint32_t *inside)
{
    return __atomic_sub_fetch(inside, 1u, __ATOMIC_ACQ_REL) == BB_SYNC_DYING;
}

/* The freer's side: true if nobody is inside and the caller frees it now. */
static inline bool bb_sync_retire(uint32_t *inside)
{
    return __atomic_fetch_or(inside, BB_SYNC_DYING, __ATOMIC_ACQ_REL) == 0;
}

/* ---- waiters that will never run again ------------------------------------- */

/*
 * A ULT left waiting when its ES was cancelled, or its main scheduler exited,
 * keeps its node in the object's queue, on its own stack, which the last
 * ABT_finalize frees with the ULT. So the finalize calls bb_wait_abandon on
 * every unit it frees, after the alarm thread has stopped and before any
 * stack goes: the node leaves its queue, and the object gets back what the
 * wait took from it (a barrier's arrival, a rwlock granted but never taken, a
 * timed waiter's count). Nobody is woken. The object then works on, static
 * ones across init cycles too, as if that ULT had never waited.
 */
void bb_wait_abandon(bb_unit *u);

/* Take `n` out of `q` if it is still there (the object's lock is held). */
bool bb_waitq_leave(bb_waitq *q, bb_wait_node *n);

/* Whether `n` is in its object's queue; at the finalize, with nothing else
 * running, without the object's lock. */
static inline bool bb_wait_node_is_queued(const bb_wait_node *n)
{
    return bb_load_relaxed(&n->status) == BB_WAIT_PENDING;
}

/* Each object's part (src/sync): `obj` is the node's sync_obj. */
void bb_mutex_abandon_waiter(void *obj, bb_wait_node *n);
void bb_cond_abandon_waiter(void *obj, bb_wait_node *n);
void bb_rwlock_abandon_waiter(void *obj, bb_wait_node *n);
void bb_barrier_abandon_waiter(void *obj, bb_wait_node *n);
void bb_future_abandon_waiter(void *obj, bb_wait_node *n);
void bb_eventual_abandon_waiter(void *obj, bb_wait_node *n);

/* ---- deadlines for blocked ULTs (src/sync/alarm.c) ------------------------ */

/* One deadline, armed by a blocked ULT; lives on its stack. */
typedef struct bb_alarm {
    struct timespec deadline;
    bb_spinlock *lock; /* the object's lock and queue where `node` waits */
    bb_waitq *q;
    bb_wait_node *node;
    uint32_t index;    /* position in the alarm heap; under the alarm lock */
    uint32_t firing;   /* atomic: taken by the alarm thread, not yet done */
} bb_alarm;

/* Arm `a`; false if the alarm thread could not be started. */
bool bb_alarm_arm(bb_alarm *a);
/* Disarm `a` after its wait ended; waits while the alarm thread handles it. */
void bb_alarm_disarm(bb_alarm *a);
/* Stop the alarm thread (ABT_finalize); it starts again when needed. */
void bb_alarm_shutdown(void);

/* ---- time ------------------------------------------------------------------ */

static inline bool bb_timespec_passed(const struct timespec *deadline)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return now.tv_sec > deadline->tv_sec ||
           (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

#endif
