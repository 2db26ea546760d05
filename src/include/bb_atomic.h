/* Thin names over the compiler's __atomic builtins, so that each use states
 * its memory order, and a test-and-test-and-set spinlock for short critical
 * sections shared between execution streams. */
#ifndef BB_ATOMIC_H
#define BB_ATOMIC_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "bb_arch.h" /* bb_cpu_relax */

#define bb_load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define bb_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define bb_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define bb_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define bb_exchange_acq_rel(p, v) __atomic_exchange_n((p), (v), __ATOMIC_ACQ_REL)
#define bb_fetch_add_relaxed(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define bb_fetch_add_release(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELEASE)
#define bb_fetch_add_acq_rel(p, v) __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)
#define bb_fetch_or_acq_rel(p, v) __atomic_fetch_or((p), (v), __ATOMIC_ACQ_REL)
#define bb_cas_acq_rel(p, expected_ptr, desired)                                     \
    __atomic_compare_exchange_n((p), (expected_ptr), (desired), false, __ATOMIC_ACQ_REL, \
                                __ATOMIC_ACQUIRE)

typedef struct {
    uint32_t locked;
} bb_spinlock;

static inline bool bb_spin_trylock(bb_spinlock *l)
{
    return !bb_load_relaxed(&l->locked) &&
           !__atomic_exchange_n(&l->locked, 1u, __ATOMIC_ACQUIRE);
}

/* One step of a wait for another OS thread (a lock holder, an ES saving a
 * context): it may have been preempted (more ESs than CPUs, or a woken
 * thread took its CPU), so after a while give it the CPU instead of
 * spinning out our time slice. `spins` counts the steps of this wait. */
static inline void bb_spin_wait_step(unsigned *spins)
{
    if (*spins < 256) {
        ++*spins;
        bb_cpu_relax();
    } else {
        sched_yield();
    }
}

/* Out of line and cold, so that taking a free lock stays a few
 * instructions in a function that needs no stack frame. */
static __attribute__((noinline, cold)) void bb_spin_lock_contended(bb_spinlock *l)
{
    unsigned spins = 0;
    do {
        while (bb_load_relaxed(&l->locked))
            bb_spin_wait_step(&spins);
    } while (!bb_spin_trylock(l));
}

static inline void bb_spin_lock(bb_spinlock *l)
{
    if (__builtin_expect(!bb_spin_trylock(l), 0))
        bb_spin_lock_contended(l);
}

static inline void bb_spin_unlock(bb_spinlock *l)
{
    bb_store_release(&l->locked, 0u);
}

#endif
