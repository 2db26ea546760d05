/*
 * The built-in FIFO pool: an intrusive doubly linked list of units.
 *
 * Two operation tables share the list code. `fifo_private` is for pools with
 * ABT_POOL_ACCESS_PRIV, used by one ES only: plain loads and stores, no
 * atomic instruction. `fifo_shared` serves every other access kind by taking a
 * spinlock around the same code; the critical sections are a few stores long.
 */
#include <stdlib.h>

#include "bb_pool.h"
#include "bb_runtime.h"

static inline void list_push_tail(bb_pool *p, bb_unit *u)
{
    u->next = NULL;
    u->prev = p->tail;
    if (p->tail)
        p->tail->next = u;
    else
        p->head = u;
    p->tail = u;
    bb_store_relaxed(&p->size, p->size + 1);
}

static inline bb_unit *list_pop_head(bb_pool *p)
{
    bb_unit *u = p->head;
    if (u) {
        p->head = u->next;
        if (p->head)
            p->head->prev = NULL;
        else
            p->tail = NULL;
        u->next = NULL;
        bb_store_relaxed(&p->size, p->size - 1);
    }
    return u;
}

/* A unit is in this list iff it is the head or has a predecessor. */
static inline bool list_contains(bb_pool *p, bb_unit *u)
{
    return p->head == u || (u->prev && u->prev->next == u);
}

static inline int list_remove(bb_pool *p, bb_unit *u)
{
    if (!list_contains(p, u))
        return ABT_ERR_POOL;
    if (u->prev)
        u->prev->next = u->next;
    else
        p->head = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        p->tail = u->prev;
    u->next = u->prev = NULL;
    bb_store_relaxed(&p->size, p->size - 1);
    return ABT_SUCCESS;
}

static size_t fifo_size(bb_pool *p)
{
    return bb_load_relaxed(&p->size);
}

/* ---- private: one ES, no atomics ---- */

static void private_push(bb_pool *p, bb_unit *u, bb_push_hint hint)
{
    (void)hint;
    list_push_tail(p, u);
}

static bb_unit *private_pop(bb_pool *p)
{
    return list_pop_head(p);
}

static int private_remove(bb_pool *p, bb_unit *u)
{
    return list_remove(p, u);
}

static const bb_pool_ops fifo_private = {
    .push = private_push, .pop = private_pop, .remove = private_remove, .size = fifo_size};

/* ---- shared: any number of ESs, one spinlock ---- */

static void shared_push(bb_pool *p, bb_unit *u, bb_push_hint hint)
{
    (void)hint;
    bb_spin_lock(&p->lock);
    list_push_tail(p, u);
    bb_spin_unlock(&p->lock);
}

static bb_unit *shared_pop(bb_pool *p)
{
    if (!bb_load_relaxed(&p->size))
        return NULL; /* idle schedulers poll: keep the lock's line shared */
    bb_spin_lock(&p->lock);
    bb_unit *u = list_pop_head(p);
    bb_spin_unlock(&p->lock);
    return u;
}

static int shared_remove(bb_pool *p, bb_unit *u)
{
    bb_spin_lock(&p->lock);
    int err = list_remove(p, u);
    bb_spin_unlock(&p->lock);
    return err;
}

static const bb_pool_ops fifo_shared = {
    .push = shared_push, .pop = shared_pop, .remove = shared_remove, .size = fifo_size};

int bb_pool_create_fifo(int access, bool automatic, bb_pool **out)
{
    bb_pool *p = calloc(1, sizeof(*p));
    if (!p)
        return ABT_ERR_MEM;
    p->ops = access == ABT_POOL_ACCESS_PRIV ? &fifo_private : &fifo_shared;
    p->access = access;
    p->automatic = automatic;
    p->id = bb_fetch_add_relaxed(&bb_rt.next_pool_id, 1);
    *out = p;
    return ABT_SUCCESS;
}
