/*
 * ABT_unit handles and the public ABT_unit_* API.
 *
 * A built-in pool needs no unit of its own: its ABT_unit is the bb_unit's
 * address with the low bit set, converted back with a mask. A user pool makes
 * its own units (any value with the low bit clear, as Argobots requires), and
 * the runtime must find the work unit behind such a value again, e.g. when a
 * user scheduler hands one to ABT_xstream_run_unit. Those go through a hash
 * map: striped spinlocks, chains threaded through the bb_units themselves, so
 * inserting never allocates.
 */
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_xstream.h"
#include "unit_map.h"

bb_unit_map_bucket bb_unit_map[1u << BB_UNIT_MAP_BITS];

/* At finalization: units never freed leave entries whose descriptors are
 * about to be released with their chunks; a later ABT_init must not walk
 * them. No ES runs any more, so no lock is needed. */
void bb_unit_map_clear(void)
{
    for (size_t i = 0; i < sizeof(bb_unit_map) / sizeof(bb_unit_map[0]); i++)
        bb_unit_map[i].chain = NULL;
}

bb_unit *bb_unit_map_find(ABT_unit unit)
{
    bb_unit_map_bucket *b = bb_unit_map_bucket_of(unit);
    bb_spin_lock(&b->lock);
    bb_unit *u = b->chain;
    while (u && u->user_unit != unit)
        u = u->map_next;
    bb_spin_unlock(&b->lock);
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
