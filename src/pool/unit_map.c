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

#define MAP_BUCKETS 4096 /* a power of two */

static struct map_bucket {
    bb_spinlock lock;
    bb_unit *chain;
} unit_map[MAP_BUCKETS];

static struct map_bucket *bucket_of(ABT_unit unit)
{
    uint64_t h = (uint64_t)(uintptr_t)unit * 0x9e3779b97f4a7c15ull; /* Fibonacci hashing */
    return &unit_map[h >> (64 - 12)];
}

_Static_assert(MAP_BUCKETS == 1 << 12, "bucket_of takes the top 12 bits");

void bb_unit_map_insert(ABT_unit unit, bb_unit *u)
{
    struct map_bucket *b = bucket_of(unit);
    bb_spin_lock(&b->lock);
    u->map_next = b->chain;
    b->chain = u;
    bb_spin_unlock(&b->lock);
}

void bb_unit_map_remove(ABT_unit unit)
{
    struct map_bucket *b = bucket_of(unit);
    bb_spin_lock(&b->lock);
    for (bb_unit **link = &b->chain; *link; link = &(*link)->map_next) {
        if ((*link)->user_unit == unit) {
            *link = (*link)->map_next;
            break;
        }
    }
    bb_spin_unlock(&b->lock);
}

bb_unit *bb_unit_map_find(ABT_unit unit)
{
    struct map_bucket *b = bucket_of(unit);
    bb_spin_lock(&b->lock);
    bb_unit *u = b->chain;
    while (u && u->user_unit != unit)
        u = u->map_next;
    bb_spin_unlock(&b->lock);
    return u;
}

ABT_unit bb_unit_to_handle(bb_unit *u)
{
    if ((u->flags & BB_UNIT_HAS_USER_UNIT) && u->unit_pool == u->pool)
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
