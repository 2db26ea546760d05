/*
 * ABT_mutex_*: see bb_mutex.h for the owner word.
 *
 * Contended locking: spin a little while another ES may release the mutex
 * soon, then wait in the queue (bb_wait: a ULT blocks, anybody else sleeps
 * in the kernel). Unlock with waiters frees the mutex and wakes the first
 * waiter, which then competes for it again: a running unit may take the
 * mutex meanwhile (barging), which keeps the mutex busy instead of idle
 * while the woken waiter is scheduled.
 *
 * Barging is unfair: a unit that keeps relocking on a busy ES can keep the
 * mutex from a woken waiter for long. Handing the mutex to the waiter
 * instead would be fair, but could deadlock where Argobots does not: the
 * waiter may need an ES that a tasklet holds while it sleeps waiting for the
 * same mutex. So bobbin barges, as Argobots does.
 *
 * Waking one waiter per unlock is not always enough: a tasklet (or a
 * scheduler) waits asleep in the kernel and holds its ES meanwhile, so a
 * woken ULT of that ES cannot run to take the mutex and wake the next one.
 * While such a waiter is queued, an unlock wakes every waiter, as Argobots
 * always does; the ones that can run compete, and the sleeper is among them.
 *
 * The rule that no waiter is forgotten: while the queue is not empty, the
 * owner word has WAITERS set, even when the mutex is free (owner word ==
 * WAITERS). So the unit that takes a free mutex next keeps the flag, and its
 * unlock takes the slow path and wakes the next waiter.
 */
#include <stdlib.h>

#include "bb_caller.h"
#include "bb_mutex.h"
#include "bb_runtime.h"

__thread uint64_t bb_tls_external_token __attribute__((tls_model("initial-exec")));

/* How long to spin on a held mutex before waiting in the queue, in polls. */
enum { SPIN_POLLS = 128 };

static bool try_take(bb_mutex *m, uintptr_t token)
{
    uintptr_t expected = 0;
    return bb_cas_acq_rel(&m->owner, &expected, token);
}

/* Take the mutex if it is free, with or without waiters (they stay flagged). */
static bool try_take_free(bb_mutex *m, uintptr_t token)
{
    uintptr_t owner = bb_load_relaxed(&m->owner);
    return (owner & ~BB_MUTEX_FLAGS) == 0 &&
           bb_cas_acq_rel(&m->owner, &owner, token | (owner & BB_MUTEX_WAITERS));
}

/* Worth spinning only when the owner may be running elsewhere: with a single
 * ES and the caller on it, the owner cannot run until the caller waits. */
static bool spin_for(bb_mutex *m, uintptr_t token)
{
    if (bb_self_xstream() && bb_load_relaxed(&bb_rt.num_xstreams) < 2)
        return false;
    for (int i = 0; i < SPIN_POLLS; i++) {
        if (try_take_free(m, token))
            return true;
        bb_cpu_relax();
    }
    return false;
}

/* The owner locks a recursive mutex again. */
static void nest(bb_mutex *m)
{
    if (m->nesting++ == 0)
        bb_fetch_or_acq_rel(&m->owner, BB_MUTEX_NESTED);
}

/* Take the mutex, queueing behind its owner as long as it is held. The flag
 * WAITERS is set under m->lock before a waiter queues. */
static void take_or_wait(bb_mutex *m, uintptr_t token)
{
    for (;;) {
        bb_spin_lock(&m->lock);
        uintptr_t owner = bb_load_relaxed(&m->owner);
        if ((owner & ~BB_MUTEX_FLAGS) == 0) {
            if (bb_cas_acq_rel(&m->owner, &owner, token | (owner & BB_MUTEX_WAITERS))) {
                bb_spin_unlock(&m->lock);
                return;
            }
        } else if ((owner & BB_MUTEX_WAITERS) ||
                   bb_cas_acq_rel(&m->owner, &owner, owner | BB_MUTEX_WAITERS)) {
            bool holds_es = bb_wait_holds_es();
            m->holding += holds_es;
            bb_wait_node node = {.sync_type = ABT_SYNC_EVENT_TYPE_MUTEX, .sync_obj = m};
            bb_wait(&m->lock, &m->waiters, &node, NULL); /* releases m->lock */
            if (holds_es) {
                bb_spin_lock(&m->lock);
                m->holding--;
                bb_spin_unlock(&m->lock);
            }
            continue;
        }
        bb_spin_unlock(&m->lock); /* the owner word moved under us: look again */
    }
}

static int lock_slow(bb_mutex *m, uintptr_t token)
{
    if (bb_mutex_is_held_by(m, token)) {
        if (!m->recursive)
            return ABT_ERR_MUTEX; /* would wait for itself forever */
        nest(m);
        return ABT_SUCCESS;
    }
    if (!spin_for(m, token))
        take_or_wait(m, token);
    return ABT_SUCCESS;
}

static inline int lock(ABT_mutex handle)
{
    bb_mutex *m = bb_mutex_of(handle);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    uintptr_t token = bb_self_token();
    if (__builtin_expect(try_take(m, token), 1))
        return ABT_SUCCESS;
    return lock_slow(m, token);
}

int ABT_mutex_lock(ABT_mutex mutex)
{
    return lock(mutex);
}

int ABT_mutex_lock_high(ABT_mutex mutex)
{
    return lock(mutex);
}

int ABT_mutex_lock_low(ABT_mutex mutex)
{
    return lock(mutex);
}

int ABT_mutex_trylock(ABT_mutex mutex)
{
    bb_mutex *m = bb_mutex_of(mutex);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    uintptr_t token = bb_self_token();
    if (try_take_free(m, token))
        return ABT_SUCCESS;
    if (m->recursive && bb_mutex_is_held_by(m, token)) {
        nest(m);
        return ABT_SUCCESS;
    }
    return ABT_ERR_MUTEX_LOCKED;
}

/* Busy-wait: the caller keeps its ES (or OS thread) until it has the mutex. */
int ABT_mutex_spinlock(ABT_mutex mutex)
{
    bb_mutex *m = bb_mutex_of(mutex);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    uintptr_t token = bb_self_token();
    if (bb_mutex_is_held_by(m, token))
        return lock_slow(m, token);
    while (!try_take_free(m, token))
        bb_cpu_relax();
    return ABT_SUCCESS;
}

/* ---- unlock --------------------------------------------------------------------- */

/* Free the mutex and wake its first waiter, or all of them (see above). */
static void release_and_wake(bb_mutex *m)
{
    bb_spin_lock(&m->lock);
    if (m->holding) {
        bb_wait_node *all = bb_waitq_claim_all(&m->waiters);
        bb_store_release(&m->owner, (uintptr_t)0);
        bb_spin_unlock(&m->lock);
        bb_wait_wake_list(all);
        return;
    }
    bb_wait_node *n = bb_waitq_pop(&m->waiters);
    bb_store_release(&m->owner, bb_waitq_is_empty(&m->waiters) ? 0 : BB_MUTEX_WAITERS);
    uintptr_t w = n ? bb_wait_claim(n) : 0;
    bb_spin_unlock(&m->lock);
    bb_wait_wake(w);
}

static int unlock_slow(bb_mutex *m, uintptr_t token)
{
    uintptr_t owner = bb_load_relaxed(&m->owner);
    if (!bb_mutex_may_unlock(m, token))
        return ABT_ERR_MUTEX; /* not locked, or locked by somebody else */
    if (owner & BB_MUTEX_NESTED) {
        if (--m->nesting == 0)
            __atomic_fetch_and(&m->owner, ~BB_MUTEX_NESTED, __ATOMIC_RELEASE);
        return ABT_SUCCESS;
    }
    release_and_wake(m);
    return ABT_SUCCESS;
}

static inline int unlock(ABT_mutex handle)
{
    bb_mutex *m = bb_mutex_of(handle);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    uintptr_t token = bb_self_token();
    uintptr_t expected = token;
    if (__builtin_expect(bb_cas_acq_rel(&m->owner, &expected, (uintptr_t)0), 1))
        return ABT_SUCCESS;
    return unlock_slow(m, token);
}

int ABT_mutex_unlock(ABT_mutex mutex)
{
    return unlock(mutex);
}

int ABT_mutex_unlock_se(ABT_mutex mutex)
{
    return unlock(mutex);
}

int ABT_mutex_unlock_de(ABT_mutex mutex)
{
    return unlock(mutex);
}

/* ---- for condition variables ------------------------------------------------------ */

int bb_mutex_unlock_all(bb_mutex *m, uintptr_t token, uint32_t *nesting)
{
    if (!bb_mutex_is_held_by(m, token))
        return ABT_ERR_MUTEX;
    *nesting = m->nesting;
    if (m->nesting) {
        m->nesting = 0;
        __atomic_fetch_and(&m->owner, ~BB_MUTEX_NESTED, __ATOMIC_RELEASE);
    }
    uintptr_t expected = token;
    if (!bb_cas_acq_rel(&m->owner, &expected, (uintptr_t)0))
        release_and_wake(m);
    return ABT_SUCCESS;
}

void bb_mutex_relock(bb_mutex *m, uintptr_t token, uint32_t nesting)
{
    if (!try_take_free(m, token) && !spin_for(m, token))
        take_or_wait(m, token);
    if (nesting) {
        m->nesting = nesting;
        bb_fetch_or_acq_rel(&m->owner, BB_MUTEX_NESTED);
    }
}

void bb_mutex_add_waiter(bb_mutex *m, bb_wait_node *n)
{
    bb_spin_lock(&m->lock);
    bb_fetch_or_acq_rel(&m->owner, BB_MUTEX_WAITERS);
    bb_waitq_push(&m->waiters, n);
    bb_spin_unlock(&m->lock);
}

/* ---- life ------------------------------------------------------------------------- */

int bb_mutex_create(bool recursive, ABT_mutex *newmutex)
{
    if (!newmutex)
        return ABT_ERR_INV_ARG;
    *newmutex = ABT_MUTEX_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_mutex *m = calloc(1, sizeof(*m));
    if (!m)
        return ABT_ERR_MEM;
    m->recursive = recursive;
    *newmutex = (ABT_mutex)(void *)m;
    return ABT_SUCCESS;
}

int ABT_mutex_create(ABT_mutex *newmutex)
{
    return bb_mutex_create(false, newmutex);
}

/* Like Argobots, a locked mutex may be freed; one with waiters may not. */
int ABT_mutex_free(ABT_mutex *mutex)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!mutex)
        return ABT_ERR_INV_ARG;
    bb_mutex *m = bb_mutex_of(*mutex);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    bb_spin_lock(&m->lock);
    bool busy = !bb_waitq_is_empty(&m->waiters);
    bb_spin_unlock(&m->lock);
    if (busy)
        return ABT_ERR_MUTEX; /* units wait in it: freeing would strand them */
    free(m);
    *mutex = ABT_MUTEX_NULL;
    return ABT_SUCCESS;
}

int ABT_mutex_equal(ABT_mutex mutex1, ABT_mutex mutex2, ABT_bool *result)
{
    if (!result)
        return ABT_ERR_INV_ARG;
    *result = mutex1 == mutex2 ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}
