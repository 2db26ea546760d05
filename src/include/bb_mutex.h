/*
 * The mutex, as condition variables see it.
 *
 * One word says everything the fast paths need: `owner` is 0 when a plain
 * mutex is free and nobody waits. Its low bits are flags:
 * BB_MUTEX_WAITERS (somebody waits: unlock must wake one),
 * BB_MUTEX_NESTED (a recursive owner locked it again: unlock counts down),
 * BB_MUTEX_RECURSIVE (set for life: the holder is recorded).
 * The rest is the holder: 0 when free; BB_MUTEX_HELD for a locked plain
 * mutex, which, as in Argobots, records no owner (any unit may unlock it);
 * the owner's token for a recursive mutex (the address of its work unit, or
 * of a per-thread word for an external thread).
 *
 * Lock is one compare-and-swap 0 -> HELD, unlock one compare-and-swap
 * HELD -> 0, neither needing to know who calls: a flag makes the swap fail
 * and sends the caller to the slow path, so recursive mutexes always take
 * it. Zeroed memory is a free plain mutex.
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
#define BB_MUTEX_RECURSIVE ((uintptr_t)4) /* abt.h's ABT_RECURSIVE_MUTEX_INITIALIZER */
#define BB_MUTEX_FLAGS (BB_MUTEX_WAITERS | BB_MUTEX_NESTED | BB_MUTEX_RECURSIVE)
#define BB_MUTEX_HELD ((uintptr_t)8) /* the holder of a locked plain mutex */


typedef struct bb_mutex {
    uintptr_t owner;    /* holder | flags; atomic. First: static initializers set it */
    uint32_t nesting;   /* locks beyond the first by a recursive owner; owner only */
    bb_spinlock lock;   /* guards `waiters` and the WAITERS flag's setting */
    uint32_t holding;   /* waiters that hold an ES while they sleep; under lock */
    bb_waitq waiters;
} bb_mutex;

_Static_assert(sizeof(bb_mutex) <= sizeof(ABT_mutex_memory), "ABT_mutex_memory is too small");
_Static_assert(offsetof(bb_mutex, owner) == 0, "ABT_RECURSIVE_MUTEX_INITIALIZER sets word 0");

static inline bb_mutex *bb_mutex_of(ABT_mutex handle)
{
    return (bb_mutex *)(void *)handle;
}

/* Who the caller is, as a recursive mutex's owner. */
extern __thread uint64_t bb_tls_external_token __attribute__((tls_model("initial-exec")));

static inline uintptr_t bb_self_token(void)
{
    bb_xstream *es = bb_tls_xstream;
    return es ? (uintptr_t)es->current : (uintptr_t)&bb_tls_external_token;
}

static inline bool bb_mutex_is_recursive(const bb_mutex *m)
{
    return bb_load_relaxed(&m->owner) & BB_MUTEX_RECURSIVE; /* never changes */
}

/* The holder value the caller writes when it takes `m`, and compares to know
 * whether it holds `m`: HELD for a plain mutex, where "the caller holds it"
 * can only mean "somebody holds it"; the caller's token for a recursive one.
 * The primary ULT also owns what its OS thread locked before ABT_init, under
 * that thread's token. */
static inline uintptr_t bb_mutex_me(const bb_mutex *m)
{
    uintptr_t owner = bb_load_relaxed(&m->owner);
    if (!(owner & BB_MUTEX_RECURSIVE))
        return BB_MUTEX_HELD;
    uintptr_t thread_token = (uintptr_t)&bb_tls_external_token;
    bb_xstream *es = bb_tls_xstream;
    if (!es)
        return thread_token;
    bb_unit *self = es->current;
    if ((self->flags & BB_UNIT_PRIMARY) && (owner & ~BB_MUTEX_FLAGS) == thread_token)
        return thread_token;
    return (uintptr_t)self;
}

static inline bool bb_mutex_is_held_by(const bb_mutex *m, uintptr_t me)
{
    return (bb_load_relaxed(&m->owner) & ~BB_MUTEX_FLAGS) == me;
}

/* ABT_mutex_create and ABT_mutex_create_with_attr. */
int bb_mutex_create(bool recursive, ABT_mutex *newmutex);

/* Unlock `m`, which the caller holds, entirely (all nesting levels), for a
 * condition wait: *nesting receives the levels to give back to
 * bb_mutex_relock. The waiters the unlock lets in are returned claimed, not
 * woken: the caller still holds the condition's lock, and whatever a wake
 * runs (a tool's callback, a user pool's push) must not run under it. It
 * passes them to bb_wait_then_wake. */
bb_wait_node *bb_mutex_unlock_all(bb_mutex *m, uint32_t *nesting);
void bb_mutex_relock(bb_mutex *m, uintptr_t me, uint32_t nesting);

/* Move a condition's waiter into the queue of `m` if `m` is held: its unlock
 * wakes it, and it takes `m` as any woken waiter does. False if `m` is free
 * (then the caller wakes it). */
bool bb_mutex_add_waiter(bb_mutex *m, bb_wait_node *n);

#endif
