/*
 * Pools: containers of ready work units.
 *
 * Every pool is driven through a small table of operations, so built-in and
 * user-defined pools look the same to schedulers. The built-in FIFO keeps its
 * units in an intrusive doubly linked list (bb_unit.next/prev): pushing never
 * allocates. A pool with ABT_POOL_ACCESS_PRIV uses plain loads and stores;
 * every other access kind takes a spinlock around the same list code. The
 * choice is made once, at pool creation, by picking the operation table.
 */
#ifndef BB_POOL_H
#define BB_POOL_H

#include <abt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bb_atomic.h"
#include "bb_unit.h"

typedef uint64_t bb_push_hint; /* ABT_pool_context flags describing why a unit is pushed */

typedef struct bb_pool_ops {
    void (*push)(bb_pool *pool, bb_unit *u, bb_push_hint hint);
    bb_unit *(*pop)(bb_pool *pool);
    int (*remove)(bb_pool *pool, bb_unit *u); /* ABT_SUCCESS or ABT_ERR_POOL */
    size_t (*size)(bb_pool *pool);
} bb_pool_ops;

struct bb_pool {
    const bb_pool_ops *ops;
    /* built-in FIFO state */
    bb_unit *head;
    bb_unit *tail;
    size_t size;               /* atomic for readers on other ESs */
    bb_spinlock lock;          /* unused by private pools */
    /* bookkeeping */
    int access;                /* ABT_pool_access */
    bool automatic;            /* freed with the last scheduler that uses it */
    uint32_t num_scheds;       /* schedulers holding this pool; atomic */
    long num_blocked;          /* ULTs of this pool that are blocked; atomic */
    uint64_t id;
};

static inline bb_pool *bb_pool_of(ABT_pool handle)
{
    return (bb_pool *)(void *)handle;
}

static inline ABT_pool bb_pool_handle(bb_pool *p)
{
    return (ABT_pool)(void *)p;
}

static inline void bb_pool_push(bb_pool *pool, bb_unit *u, bb_push_hint hint)
{
    pool->ops->push(pool, u, hint);
}

static inline bb_unit *bb_pool_pop(bb_pool *pool)
{
    return pool->ops->pop(pool);
}

static inline size_t bb_pool_size(bb_pool *pool)
{
    return pool->ops->size(pool);
}

/* Units counted by ABT_pool_get_total_size: ready ones plus blocked ones
 * that will come back to this pool. */
static inline size_t bb_pool_total_size(bb_pool *pool)
{
    long blocked = bb_load_relaxed(&pool->num_blocked);
    return bb_pool_size(pool) + (size_t)(blocked > 0 ? blocked : 0);
}

static inline void bb_pool_add_blocked(bb_pool *pool, long delta)
{
    bb_fetch_add_relaxed(&pool->num_blocked, delta);
}

int bb_pool_create_fifo(int access, bool automatic, bb_pool **out);
void bb_pool_retain(bb_pool *pool);
void bb_pool_release(bb_pool *pool);
void bb_pool_destroy(bb_pool *pool);
bool bb_pool_access_is_valid(int access);

#endif
