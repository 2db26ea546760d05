/*
 * The list under every built-in pool: units linked through bb_unit.next/prev,
 * with the count kept in pool->size for lock-free readers. The caller
 * provides the mutual exclusion (none for a private pool, the pool's
 * spinlock otherwise).
 *
 * A unit in no list has no predecessor, but its `next` may be stale: nothing
 * reads it before a push sets it.
 */
#ifndef BB_POOL_LIST_H
#define BB_POOL_LIST_H

#include "bb_pool.h"

static inline void list_count(bb_pool *p, long delta)
{
    bb_owned_add(&p->size, (size_t)delta); /* we hold the list: the only writer */
}

/* The links alone; the callers keep the count. */
static inline void list_link_tail(bb_pool *p, bb_unit *u)
{
    u->next = NULL;
    u->prev = p->tail;
    if (p->tail)
        p->tail->next = u;
    else
        p->head = u;
    p->tail = u;
}

/* `u` is in the list. */
static inline void list_unlink(bb_pool *p, bb_unit *u)
{
    if (u->prev)
        u->prev->next = u->next;
    else
        p->head = u->next;
    if (u->next)
        u->next->prev = u->prev;
    else
        p->tail = u->prev;
    u->next = u->prev = NULL;
}

static inline void list_push_tail(bb_pool *p, bb_unit *u)
{
    list_link_tail(p, u);
    list_count(p, 1);
}

static inline void list_push_head(bb_pool *p, bb_unit *u)
{
    u->prev = NULL;
    u->next = p->head;
    if (p->head)
        p->head->prev = u;
    else
        p->tail = u;
    p->head = u;
    list_count(p, 1);
}

/* The head `u` leaves the list. */
static inline bb_unit *list_unlink_head(bb_pool *p, bb_unit *u)
{
    p->head = u->next;
    if (p->head)
        p->head->prev = NULL;
    else
        p->tail = NULL;
    return u; /* without predecessor: it was the head */
}

static inline bb_unit *list_pop_head(bb_pool *p)
{
    if (!p->head)
        return NULL;
    list_count(p, -1);
    return list_unlink_head(p, p->head);
}

/* The head `head` leaves and `u`, in no list, joins at the tail, the
 * count unchanged: a yield through a FIFO. */
static inline void list_rotate(bb_pool *p, bb_unit *head, bb_unit *u)
{
    bb_unit *second = head->next;
    u->next = NULL;
    if (second) { /* then there is a tail too, and it stays in the list */
        second->prev = NULL;
        p->head = second;
        u->prev = p->tail;
        p->tail->next = u;
    } else { /* `head` was alone: `u` will be */
        u->prev = NULL;
        p->head = u;
    }
    p->tail = u;
}

static inline bb_unit *list_pop_tail(bb_pool *p)
{
    bb_unit *u = p->tail;
    if (u) {
        p->tail = u->prev;
        if (p->tail)
            p->tail->next = NULL;
        else
            p->head = NULL;
        u->prev = NULL;
        list_count(p, -1);
    }
    return u;
}


/* Whether `u` is in the list of `p`, found through the list alone, which
 * the caller holds (a shared pool's lock, a private pool's ES). The unit's
 * own pool and links are not read: a unit that is not in this list may be
 * changing them meanwhile (popped from another pool, associated with this
 * one by a migration on another ES, pushed into another list): a data race,
 * and a wrong yes when it reads this pool in `pool` and another list in its
 * links. So the list is walked from both ends at once: the units one
 * usually looks for (the oldest, the newest) are found at once. */
static inline bool list_holds(const bb_pool *p, const bb_unit *u)
{
    const bb_unit *front = p->head, *back = p->tail;
    while (front) {
        if (front == u || back == u)
            return true;
        if (front == back || front->next == back)
            return false; /* met in the middle */
        front = front->next;
        back = back->prev;
    }
    return false;
}

/* A shared pool's list (builtin.c) also records itself in each unit it
 * holds, under its lock, so that whether it holds a given unit is one load
 * (list_marks): a remove, a migration or a yield_to of a unit waiting in a
 * long shared pool costs O(1), not a walk under the lock that every ES
 * using the pool waits for. Private lists, on the fork-join and yield
 * paths, keep the walk: the two stores would cost those paths more than a
 * walk of their own list, by their own ES, costs the rare remove. */
static inline void list_mark_in(bb_pool *p, bb_unit *u)
{
    bb_store_relaxed(&u->listed_in, p);
}

static inline void list_mark_out(bb_unit *u)
{
    bb_store_relaxed(&u->listed_in, (bb_pool *)NULL);
}

/* Exact under p's lock: only a holder of that lock writes p into a unit's
 * `listed_in`, or takes it out. */
static inline bool list_marks(const bb_pool *p, const bb_unit *u)
{
    return bb_load_relaxed(&u->listed_in) == p;
}

/* Take `u` out of the list if `in_list` says it is there. */
static inline int list_take_out_if(bb_pool *p, bb_unit *u, bool in_list)
{
    if (!in_list)
        return ABT_ERR_POOL;
    list_unlink(p, u);
    list_count(p, -1);
    return ABT_SUCCESS;
}

static inline int list_remove(bb_pool *p, bb_unit *u)
{
    return list_take_out_if(p, u, list_holds(p, u));
}

/* `out` leaves the list and `in`, in none, joins at the tail, the count
 * unchanged: a yield_to within one FIFO. When `out` is the tail, `in`
 * simply takes its place. */
static inline int list_trade(bb_pool *p, bb_unit *out, bb_unit *in)
{
    if (p->tail == out) {
        in->prev = out->prev;
        in->next = NULL;
        if (in->prev)
            in->prev->next = in;
        else
            p->head = in;
        p->tail = in;
        out->prev = NULL;
        return ABT_SUCCESS;
    }
    if (!list_holds(p, out))
        return ABT_ERR_POOL;
    list_unlink(p, out);
    list_link_tail(p, in);
    return ABT_SUCCESS;
}

#endif
