/*
 * The mutex, as condition variables see it.
 *
 * One word says everything the fast paths need: `owner` is 0 when the mutex
 * is free and nobody waits, else the owner's token (the address of its work
 * unit, or of a per-thread word for an external thread; 0 if free) with two
 * flag bits:
 * BB_MUTEX_WAITERS (somebody waits: unlock must wake one) and
 * BB_MUTEX_NESTED (a recursive owner locked it again: unlock must count
 * down). Lock is one compare-and-swap 0 -> token; unlock one compare-and-swap
 * token -> 0; any flag makes the swap fail and sends the caller to the slow
 * path. Zeroed memory is a free, non-recursive mutex.
 */
#ifndef BB_MUTEX_H
#define BB_MUTEX_H

#include <abt.h>
#include <stddef.h>
#include <stdint.h>

#include "bb_wait.h"
#include "bb_xstream.h"

#define BB_MUTEX_WAITERS ((uintptr_t)1)
#define BB_MUTEX_NESTED ((uintptr_t)2)
#define BB_MUTEX_FLAGS (BB_MUTEX_WAITERS | BB_MUTEX_NESTED)


typedef struct bb_mutex {
    uintptr_t owner;    /* 0, or token | flags; atomic. First: abt.h's inline lock */
    uint32_t recursive; /* second word: ABT_RECURSIVE_MUTEX_INITIALIZER sets it */
    uint32_t nesting;   /* locks beyond the first by a recursive owner; owner only */
    bb_spinlock lock;   /* guards `waiters` and the WAITERS flag's setting */
    uint32_t holding;   /* waiters that hold an ES while they sleep; under lock */
    bb_waitq waiters;
} bb_mutex;

_Static_assert(sizeof(bb_mutex) <= sizeof(ABT_mutex_memory), "ABT_mutex_memory is too small");
_Static_assert(offsetof(bb_mutex, owner) == 0, "abt.h's inline lock reads the owner first");
_Static_assert(offsetof(bb_mutex, recursive) == 8, "ABT_RECURSIVE_MUTEX_INITIALIZER sets word 1");

static inline bb_mutex *bb_mutex_of(ABT_mutex handle)
{
    return (bb_mutex *)(void *)handle;
}

/* Who the caller is, as a mutex owner. */
extern __thread uint64_t bb_tls_external_token __attribute__((tls_model("initial-exec")));

static inline uintptr_t bb_self_token(void)
{
    bb_xstream *es = bb_tls_xstream;
    return es ? (uintptr_t)es->current : (uintptr_t)&bb_tls_external_token;
}

/* ABT_mutex_create and ABT_mutex_create_with_attr. */
int bb_mutex_create(bool recursive, ABT_mutex *newmutex);

/* Unlock entirely (all nesting levels), for a condition wait; returns the
 * nesting to give back to bb_mutex_relock. */
int bb_mutex_unlock_all(bb_mutex *m, uintptr_t token, uint32_t *nesting);
void bb_mutex_relock(bb_mutex *m, uintptr_t token, uint32_t nesting);

/* Move a condition's waiter into the queue of `m`, which the caller holds:
 * the unlock wakes it, and it takes `m` as any woken waiter does. */
void bb_mutex_add_waiter(bb_mutex *m, bb_wait_node *n);

static inline bool bb_mutex_is_held_by(const bb_mutex *m, uintptr_t token)
{
    return (bb_load_relaxed(&m->owner) & ~BB_MUTEX_FLAGS) == token;
}

/* Held by the caller, or locked by its OS thread before ABT_init when the
 * caller is the primary ULT, which that thread became: it may unlock it. */
static inline bool bb_mutex_may_unlock(const bb_mutex *m, uintptr_t token)
{
    if (bb_mutex_is_held_by(m, token))
        return true;
    bb_unit *self = bb_self_unit();
    return self && (self->flags & BB_UNIT_PRIMARY) &&
           bb_mutex_is_held_by(m, (uintptr_t)&bb_tls_external_token);
}

#endif
