/*
 * The map from a user pool's ABT_unit back to its work unit (see
 * unit_map.c). Insert and remove sit on the create and free path of every
 * unit of a user pool, so they are inline: a hash, a spinlock, a few stores.
 *
 * A unit's hash picks one of a fixed set of stripes (its top
 * BB_UNIT_MAP_STRIPE_BITS bits), whose spinlock guards the chains of that
 * stripe, and one of the 2^bits chains (its top `bits` bits, so that each
 * chain lies in one stripe). The chains double in number when a stripe
 * holds more than `stripe_limit` units, with every stripe locked, so that
 * chains stay short however many units live: a remove walks its chain.
 */
#ifndef BB_UNIT_MAP_H
#define BB_UNIT_MAP_H

#include "bb_pool.h"

#define BB_UNIT_MAP_STRIPE_BITS 12

typedef struct bb_unit_map_stripe {
    bb_spinlock lock;
    uint32_t count; /* units in its chains */
} bb_unit_map_stripe;

typedef struct bb_unit_map {
    bb_unit_map_stripe stripes[1u << BB_UNIT_MAP_STRIPE_BITS];
    /* Changed only with every stripe locked, so read under any stripe's lock. */
    bb_unit **chains;      /* 2^bits heads, through bb_unit.map_next */
    unsigned bits;         /* >= BB_UNIT_MAP_STRIPE_BITS; atomic (read unlocked to grow) */
    uint32_t stripe_limit; /* a stripe holding more asks for twice the chains */
} bb_unit_map;

extern bb_unit_map bb_units_by_handle;

static inline uint64_t bb_unit_map_hash(ABT_unit unit)
{
    return (uint64_t)(uintptr_t)unit * 0x9e3779b97f4a7c15ull; /* Fibonacci hashing */
}

static inline bb_unit_map_stripe *bb_unit_map_stripe_of(ABT_unit unit)
{
    return &bb_units_by_handle.stripes[bb_unit_map_hash(unit) >> (64 - BB_UNIT_MAP_STRIPE_BITS)];
}

/* Under the lock of the unit's stripe. */
static inline bb_unit **bb_unit_map_chain_of(ABT_unit unit)
{
    return &bb_units_by_handle.chains[bb_unit_map_hash(unit) >> (64 - bb_units_by_handle.bits)];
}

/* Stripes are rarely contended: callers try the exchange once and take a
 * separate, out-of-line path when it fails, so that the spinning loop does
 * not cost the common path its registers. */
static inline bool bb_unit_map_try_lock(bb_unit_map_stripe *s)
{
    return __atomic_exchange_n(&s->lock.locked, 1u, __ATOMIC_ACQUIRE) == 0;
}

/* Under the lock of `s`, the stripe of u->user_unit. Returns whether the
 * stripe is now over its limit: the caller then calls bb_unit_map_grow,
 * once the lock is released. */
static inline bool bb_unit_map_link(bb_unit_map_stripe *s, bb_unit *u)
{
    bb_unit **chain = bb_unit_map_chain_of(u->user_unit);
    u->map_next = *chain;
    *chain = u;
    return ++s->count > bb_units_by_handle.stripe_limit;
}

/* Under the lock of `s`, the stripe of u->user_unit: take out `u` itself
 * (not merely an entry with its key, which a new unit of the same value may
 * share for a moment). */
static inline void bb_unit_map_unlink(bb_unit_map_stripe *s, bb_unit *u)
{
    bb_unit **link = bb_unit_map_chain_of(u->user_unit);
    while (*link && *link != u)
        link = &(*link)->map_next;
    if (*link) {
        *link = u->map_next;
        s->count--;
    }
    u->map_next = NULL; /* as in a free descriptor (bb_unit_make_free) */
}

/* Twice the chains, unless another caller has grown them meanwhile or
 * there is no memory (the chains then stay longer). Takes every stripe's
 * lock: call it holding none. */
void bb_unit_map_grow(void);

#endif
