/*
 * The map from a user pool's ABT_unit back to its work unit (see
 * unit_map.c). Insert and remove sit on the create and free path of every
 * unit of a user pool, so they are inline: a hash, a spinlock, a few stores.
 *
 * A unit's hash picks one of a fixed set of stripes (its top
 * BB_UNIT_MAP_STRIPE_BITS bits), whose spinlock guards the chains of that
 * stripe, and one of the 2^(64 - shift) chains (its top 64 - shift bits, so
 * that each chain lies in one stripe). A remove or a lookup walks its
 * chain; one that finds a chain longer than BB_UNIT_MAP_LONG_CHAIN doubles
 * the chains (bb_unit_map_grow, with every stripe locked), so that chains
 * stay short however many units live, and an insert costs no count.
 */
#ifndef BB_UNIT_MAP_H
#define BB_UNIT_MAP_H

#include "bb_pool.h"

#define BB_UNIT_MAP_STRIPE_BITS 12
#define BB_UNIT_MAP_LONG_CHAIN 8

typedef struct bb_unit_map {
    bb_spinlock stripes[1u << BB_UNIT_MAP_STRIPE_BITS];
    /* Changed only with every stripe locked, so read under any stripe's lock. */
    bb_unit **chains; /* 2^(64 - shift) heads, through bb_unit.map_next */
    unsigned shift;   /* <= 64 - BB_UNIT_MAP_STRIPE_BITS; atomic (read unlocked to grow) */
} bb_unit_map;

extern bb_unit_map bb_units_by_handle;

static inline uint64_t bb_unit_map_hash(ABT_unit unit)
{
    return (uint64_t)(uintptr_t)unit * 0x9e3779b97f4a7c15ull; /* Fibonacci hashing */
}

static inline bb_spinlock *bb_unit_map_stripe(uint64_t hash)
{
    return &bb_units_by_handle.stripes[hash >> (64 - BB_UNIT_MAP_STRIPE_BITS)];
}

/* Under the lock of the hash's stripe. */
static inline bb_unit **bb_unit_map_chain(uint64_t hash)
{
    return &bb_units_by_handle.chains[hash >> bb_units_by_handle.shift];
}

/* Stripes are rarely contended: callers try the exchange once and take a
 * separate, out-of-line path when it fails, so that the spinning loop does
 * not cost the common path its registers. */
static inline bool bb_unit_map_try_lock(bb_spinlock *stripe)
{
    return __atomic_exchange_n(&stripe->locked, 1u, __ATOMIC_ACQUIRE) == 0;
}

/* Under the lock of the stripe of `hash`, that of u->user_unit. */
static inline void bb_unit_map_link(uint64_t hash, bb_unit *u)
{
    bb_unit **chain = bb_unit_map_chain(hash);
    u->map_next = *chain;
    *chain = u;
}

/* Under the lock of the stripe of `hash`, that of u->user_unit: take out
 * `u` itself (not merely an entry with its key, which a new unit of the
 * same value may share for a moment). Returns whether its chain was long:
 * the caller then calls bb_unit_map_grow, once the lock is released. */
static inline bool bb_unit_map_unlink(uint64_t hash, bb_unit *u)
{
    bb_unit **link = bb_unit_map_chain(hash);
    unsigned walked = 0;
    while (*link && *link != u) {
        link = &(*link)->map_next;
        walked++;
    }
    if (*link)
        *link = u->map_next;
    u->map_next = NULL; /* as in a free descriptor (bb_unit_make_free) */
    return walked > BB_UNIT_MAP_LONG_CHAIN;
}

/* Twice the chains, unless another caller has grown them meanwhile or
 * there is no memory (the chains then stay longer). Takes every stripe's
 * lock: call it holding none. */
void bb_unit_map_grow(void);

#endif
