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
 * owner word has WAITERS set, even when the mutex is free (holder 0). So the
 * unit that takes a free mutex next keeps the flag, and its unlock takes the
 * slow path and wakes the next waiter.
 */
#include <stdlib.h>

#include "bb_caller.h"
#include "bb_mutex.h"
#include "bb_runtime.h"

__thread uint64_t bb_tls_external_token __attribute__((tls_model("initial-exec")));

/* How long to spin on a held mutex before waiting in the queue, in polls. */
enum { SPIN_POLLS = 128 };

static uintptr_t holder_of(uintptr_t owner)
{
    return owner & ~BB_MUTEX_FLAGS;
}

/* Take the mutex if it is free, with or without waiters (they stay flagged);
 * `me` is bb_mutex_me(m). */
static bool try_take_free(bb_mutex *m, uintptr_t me)
{
    uintptr_t owner = bb_load_relaxed(&m->owner);
    return holder_of(owner) == 0 && bb_cas_acq_rel(&m->owner, &owner, owner | me);
}

/* Worth spinning only when the holder may be running elsewhere: with a single
 * ES and the caller on it, the holder cannot run until the caller waits. */
static bool spin_for(bb_mutex *m, uintptr_t me)
{
    if (bb_self_xstream() && bb_load_relaxed(&bb_rt.num_xstreams) < 2)
        return false;
    for (int i = 0; i < SPIN_POLLS; i++) {
        if (try_take_free(m, me))
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

/* Whether the caller owns recursive mutex `m` already. */
static bool owns(const bb_mutex *m, uintptr_t me)
{
    return me != BB_MUTEX_HELD && bb_mutex_is_held_by(m, me);
}

/* Take the mutex, queueing behind its holder as long as it is held. The flag
 * WAITERS is set under m->lock before a waiter queues. */
static void take_or_wait(bb_mutex *m, uintptr_t me)
{
    for (;;) {
        bb_spin_lock(&m->lock);
        uintptr_t owner = bb_load_relaxed(&m->owner);
        if (holder_of(owner) == 0) {
            if (bb_cas_acq_rel(&m->owner, &owner, owner | me)) {
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

/* A plain mutex's holder is not recorded, so relocking one's own plain mutex
 * waits for ever, as in Argobots. */
static __attribute__((noinline)) int lock_slow(bb_mutex *m)
{
    uintptr_t me = bb_mutex_me(m);
    if (owns(m, me)) {
        nest(m);
        return ABT_SUCCESS;
    }
    if (!spin_for(m, me))
        take_or_wait(m, me);
    return ABT_SUCCESS;
}

/* The hot path of every way to lock: one compare-and-swap, no question of
 * who calls. It takes only a free plain mutex that nobody waits for. */
static inline bool take_plain_free(bb_mutex *m)
{
    uintptr_t expected = 0;
    return __builtin_expect(bb_cas_acq_rel(&m->owner, &expected, BB_MUTEX_HELD), 1);
}

static inline int lock(ABT_mutex handle)
{
    bb_mutex *m = bb_mutex_of(handle);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    return take_plain_free(m) ? ABT_SUCCESS : lock_slow(m);
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

/* Out of line, as lock_slow and spinlock_slow: inlined, their registers were
 * saved and restored around the fast path's one compare-and-swap (spinlock +
 * unlock took 36 instructions instead of 28). */
static __attribute__((noinline)) int trylock_slow(bb_mutex *m)
{
    uintptr_t me = bb_mutex_me(m);
    if (try_take_free(m, me))
        return ABT_SUCCESS;
    if (owns(m, me)) {
        nest(m);
        return ABT_SUCCESS;
    }
    return ABT_ERR_MUTEX_LOCKED;
}

int ABT_mutex_trylock(ABT_mutex mutex)
{
    bb_mutex *m = bb_mutex_of(mutex);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    return take_plain_free(m) ? ABT_SUCCESS : trylock_slow(m);
}

static __attribute__((noinline)) int spinlock_slow(bb_mutex *m)
{
    uintptr_t me = bb_mutex_me(m);
    if (owns(m, me)) {
        nest(m);
        return ABT_SUCCESS;
    }
    unsigned spins = 0;
    while (!try_take_free(m, me))
        bb_spin_wait_step(&spins);
    return ABT_SUCCESS;
}

/* Busy-wait: the caller keeps its ES (or OS thread) until it has the mutex. */
int ABT_mutex_spinlock(ABT_mutex mutex)
{
    bb_mutex *m = bb_mutex_of(mutex);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    return take_plain_free(m) ? ABT_SUCCESS : spinlock_slow(m);
}

/* ---- unlock --------------------------------------------------------------------- */

/* Free the mutex, which has waiters, and claim its first waiter, or all of
 * them (see above), for bb_wait_wake_list. Mutex waiters have no deadline:
 * a claimed node stays until woken. */
static bb_wait_node *release_to_waiters(bb_mutex *m)
{
    uintptr_t kind = bb_load_relaxed(&m->owner) & BB_MUTEX_RECURSIVE;
    bb_spin_lock(&m->lock);
    bb_wait_node *woken;
    if (m->holding) {
        woken = bb_waitq_claim_all(&m->waiters);
        bb_store_release(&m->owner, kind);
    } else {
        woken = bb_waitq_pop(&m->waiters);
        bb_store_release(&m->owner,
                         kind | (bb_waitq_is_empty(&m->waiters) ? 0 : BB_MUTEX_WAITERS));
        if (woken) {
            woken->next = NULL; /* a list of one */
            bb_store_release(&woken->status, (uint32_t)BB_WAIT_WOKEN);
        }
    }
    bb_spin_unlock(&m->lock);
    return woken;
}

/* The holder lets go of the last nesting level; the waiters it lets in are
 * returned, claimed but not woken yet. */
static bb_wait_node *release_claiming(bb_mutex *m)
{
    uintptr_t owner = bb_load_relaxed(&m->owner);
    while (!(owner & BB_MUTEX_WAITERS)) {
        if (bb_cas_acq_rel(&m->owner, &owner, owner & BB_MUTEX_RECURSIVE))
            return NULL;
    }
    return release_to_waiters(m);
}

static void release(bb_mutex *m)
{
    bb_wait_wake_list(release_claiming(m));
}

static __attribute__((noinline)) int unlock_slow(bb_mutex *m)
{
    uintptr_t owner = bb_load_relaxed(&m->owner);
    if (holder_of(owner) == 0)
        return ABT_ERR_MUTEX; /* not locked */
    if (owner & BB_MUTEX_RECURSIVE) {
        if (!bb_mutex_is_held_by(m, bb_mutex_me(m)))
            return ABT_ERR_MUTEX; /* somebody else owns it */
        if (owner & BB_MUTEX_NESTED) {
            if (--m->nesting == 0)
                __atomic_fetch_and(&m->owner, ~BB_MUTEX_NESTED, __ATOMIC_RELEASE);
            return ABT_SUCCESS;
        }
    }
    release(m);
    return ABT_SUCCESS;
}

static inline int unlock(ABT_mutex handle)
{
    bb_mutex *m = bb_mutex_of(handle);
    if (!m)
        return ABT_ERR_INV_MUTEX;
    uintptr_t expected = BB_MUTEX_HELD;
    if (__builtin_expect(bb_cas_acq_rel(&m->owner, &expected, (uintptr_t)0), 1))
        return ABT_SUCCESS;
    return unlock_slow(m);
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

bb_wait_node *bb_mutex_unlock_all(bb_mutex *m, uint32_t *nesting)
{
    *nesting = m->nesting;
    if (m->nesting) {
        m->nesting = 0;
        __atomic_fetch_and(&m->owner, ~BB_MUTEX_NESTED, __ATOMIC_RELEASE);
    }
    return release_claiming(m);
}

void bb_mutex_relock(bb_mutex *m, uintptr_t me, uint32_t nesting)
{
    if (!try_take_free(m, me) && !spin_for(m, me))
        take_or_wait(m, me);
    if (nesting) {
        m->nesting = nesting;
        bb_fetch_or_acq_rel(&m->owner, BB_MUTEX_NESTED);
    }
}

bool bb_mutex_add_waiter(bb_mutex *m, bb_wait_node *n)
{
    bb_spin_lock(&m->lock);
    uintptr_t owner = bb_load_relaxed(&m->owner);
    while (holder_of(owner) != 0 && !(owner & BB_MUTEX_WAITERS) &&
           !bb_cas_acq_rel(&m->owner, &owner, owner | BB_MUTEX_WAITERS)) {
    }
    bool held = holder_of(owner) != 0;
    if (held) {
        bb_waitq_push(&m->waiters, n);
        n->sync_type = ABT_SYNC_EVENT_TYPE_MUTEX; /* where it waits now */
        n->sync_obj = m;
    }
    bb_spin_unlock(&m->lock);
    return held;
}

/* A woken waiter holds nothing of the mutex (which may be freed by now). */
void bb_mutex_abandon_waiter(void *obj, bb_wait_node *n)
{
    bb_mutex *m = obj;
    if (!bb_wait_node_is_queued(n))
        return;
    bb_spin_lock(&m->lock);
    if (bb_waitq_leave(&m->waiters, n) && bb_waitq_is_empty(&m->waiters))
        __atomic_fetch_and(&m->owner, ~BB_MUTEX_WAITERS, __ATOMIC_RELAXED);
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
    m->owner = recursive ? BB_MUTEX_RECURSIVE : 0;
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
