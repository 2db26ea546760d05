/*
 * The map from a user pool's ABT_unit back to its work unit (see
 * unit_map.c). Insert and remove sit on the create and free path of every
 * unit of a user pool, so they are inline: a hash, a spinlock, two stores.
 */
#ifndef BB_UNIT_MAP_H
#define BB_UNIT_MAP_H

#include "bb_pool.h"

#define BB_UNIT_MAP_BITS 12

typedef struct bb_unit_map_bucket {
    bb_spinlock lock;
    bb_unit *chain; /* through bb_unit.map_next */
} bb_unit_map_bucket;

extern bb_unit_map_bucket bb_unit_map[1u << BB_UNIT_MAP_BITS];

static inline bb_unit_map_bucket *bb_unit_map_bucket_of(ABT_unit unit)
{
    uint64_t h = (uint64_t)(uintptr_t)unit * 0x9e3779b97f4a7c15ull; /* Fibonacci hashing */
    return &bb_unit_map[h >> (64 - BB_UNIT_MAP_BITS)];
}

/* Buckets are rarely contended: callers try the exchange once and take a
 * separate, out-of-line path when it fails, so that the spinning loop does
 * not cost the common path its registers. */
static inline bool bb_unit_map_try_lock(bb_unit_map_bucket *b)
{
    return __atomic_exchange_n(&b->lock.locked, 1u, __ATOMIC_ACQUIRE) == 0;
}

/* Under the bucket's lock. */
static inline void bb_unit_map_link(bb_unit_map_bucket *b, bb_unit *u)
{
    u->map_next = b->chain;
    b->chain = u;
}

/* Under the bucket's lock: take out `u` itself (not merely an entry with its
 * key, which a new unit of the same value may share for a moment). */
static inline void bb_unit_map_unlink(bb_unit_map_bucket *b, bb_unit *u)
{
    bb_unit **link = &b->chain;
    while (*link && *link != u)
        link = &(*link)->map_next;
    if (*link)
        *link = u->map_next;
    u->map_next = NULL; /* as in a free descriptor (bb_unit_make_free) */
}

#endif
