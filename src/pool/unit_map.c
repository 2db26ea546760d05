/*
 * ABT_unit handles and the public ABT_unit_* API.
 *
 * A built-in pool needs no unit of its own: its ABT_unit is the bb_unit's
 * address with the low bit set, converted back with a mask. A user pool makes
 * its own units (any value with the low bit clear, as Argobots requires), and
 * the runtime must find the work unit behind such a value again, e.g. when a
 * user scheduler hands one to ABT_xstream_run_unit. Those go through a hash
 * map (unit_map.h): striped spinlocks, chains threaded through the bb_units
 * themselves, so that inserting allocates only when the chains double.
 */
#include <stdlib.h>

#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_xstream.h"
#include "unit_map.h"

/* 2^30 chains (8 GiB of heads) at most: beyond, chains just grow longer. */
#define MIN_SHIFT (64u - 30u)
#define FIRST_SHIFT (64u - BB_UNIT_MAP_STRIPE_BITS)

enum { NUM_STRIPES = 1u << BB_UNIT_MAP_STRIPE_BITS };

static bb_unit *first_chains[NUM_STRIPES];

bb_unit_map bb_units_by_handle = {.chains = first_chains, .shift = FIRST_SHIFT};

static void lock_all_stripes(void)
{
    for (unsigned i = 0; i < NUM_STRIPES; i++)
        bb_spin_lock(&bb_units_by_handle.stripes[i]);
}

static void unlock_all_stripes(void)
{
    for (unsigned i = 0; i < NUM_STRIPES; i++)
        bb_spin_unlock(&bb_units_by_handle.stripes[i]);
}

/* With every stripe locked: move each unit to its chain in `to`, whose
 * heads, all NULL, are indexed by the hash shifted by `shift`. */
static void rehash_into(bb_unit **to, unsigned shift)
{
    bb_unit_map *m = &bb_units_by_handle;
    for (size_t i = 0; i < (size_t)1 << (64 - m->shift); i++) {
        bb_unit *u = m->chains[i];
        while (u) {
            bb_unit *next = u->map_next;
            bb_unit **chain = &to[bb_unit_map_hash(u->user_unit) >> shift];
            u->map_next = *chain;
            *chain = u;
            u = next;
        }
    }
}

/* The heads are allocated before the stripes are locked, so that the other
 * ESs wait only for the move. */
void bb_unit_map_grow(void)
{
    bb_unit_map *m = &bb_units_by_handle;
    unsigned shift = bb_load_relaxed(&m->shift);
    if (shift <= MIN_SHIFT)
        return;
    bb_unit **chains = calloc((size_t)1 << (64 - shift + 1), sizeof(*chains));
    if (!chains)
        return;
    lock_all_stripes();
    if (m->shift == shift) {
        rehash_into(chains, shift - 1);
        bb_unit **old = m->chains;
        m->chains = chains;
        bb_store_relaxed(&m->shift, shift - 1);
        chains = old != first_chains ? old : NULL;
    }
    unlock_all_stripes();
    free(chains); /* the old heads, or the new ones if another grew first */
}

/* At finalization: units never freed leave entries whose descriptors are
 * about to be released with their chunks; a later ABT_init must not walk
 * them. No ES runs any more, so no lock is needed. */
void bb_unit_map_clear(void)
{
    bb_unit_map *m = &bb_units_by_handle;
    if (m->chains != first_chains)
        free(m->chains);
    for (unsigned i = 0; i < NUM_STRIPES; i++)
        first_chains[i] = NULL;
    m->chains = first_chains;
    bb_store_relaxed(&m->shift, FIRST_SHIFT);
}

bb_unit *bb_unit_map_find(ABT_unit unit)
{
    uint64_t hash = bb_unit_map_hash(unit);
    bb_spinlock *stripe = bb_unit_map_stripe(hash);
    bb_spin_lock(stripe);
    bb_unit *u = *bb_unit_map_chain(hash);
    unsigned walked = 0;
    while (u && u->user_unit != unit) {
        u = u->map_next;
        walked++;
    }
    bb_spin_unlock(stripe);
    if (walked > BB_UNIT_MAP_LONG_CHAIN)
        bb_unit_map_grow();
    return u;
}

ABT_unit bb_unit_to_handle(bb_unit *u)
{
    if (u->unit_pool && u->unit_pool == u->pool)
        return u->user_unit;
    return (ABT_unit)((uintptr_t)u | BB_UNIT_BUILTIN_BIT);
}

/* NULL if the handle names no work unit we know of. */
bb_unit *bb_unit_from_handle(ABT_unit unit)
{
    uintptr_t bits = (uintptr_t)unit;
    if (bits & BB_UNIT_BUILTIN_BIT)
        return (bb_unit *)(bits & ~BB_UNIT_BUILTIN_BIT);
    return bb_unit_map_find(unit);
}

/* ---- public API ---------------------------------------------------------- */

int ABT_unit_get_thread(ABT_unit unit, ABT_thread *thread)
{
    if (!thread)
        return ABT_ERR_INV_ARG;
    *thread = ABT_THREAD_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    bb_unit *u = bb_unit_from_handle(unit);
    if (!u)
        return ABT_ERR_INV_UNIT;
    *thread = bb_unit_handle(u);
    return ABT_SUCCESS;
}

int ABT_unit_set_associated_pool(ABT_unit unit, ABT_pool pool)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    bb_unit *u = bb_unit_from_handle(unit);
    if (!u)
        return ABT_ERR_INV_UNIT;
    return bb_unit_set_pool(u, bb_pool_of(pool));
}
