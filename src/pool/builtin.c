/*
 * The built-in pools, all on the list of bb_pool_list.h:
 *
 *   ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT  push at the tail, pop from the head.
 *   ABT_POOL_RANDWS                    a deque: units pushed by their creation
 *                                      (or revival) go to the head, where the
 *                                      owner pops, so that it runs fresh work
 *                                      first; thieves (OWNER_SECONDARY) pop the
 *                                      oldest unit, from the tail.
 *
 * Each comes as two operation tables. The private one (ABT_POOL_ACCESS_PRIV,
 * one ES) uses plain loads and stores, no atomic instruction. The shared one
 * serves every other access kind with a spinlock around the same code, and
 * wakes a sleeping scheduler when a unit arrives. FIFO and FIFO_WAIT are one
 * pool: every shared pool here can wait without polling.
 */
#include <stdlib.h>

#include "bb_runtime.h"
#include "bb_pool_list.h"

static size_t list_size(bb_pool *p)
{
    return bb_load_relaxed(&p->size);
}

static bool list_is_empty(bb_pool *p)
{
    return bb_load_relaxed(&p->size) == 0;
}

static void for_each_locked(bb_pool *p, void (*fn)(void *, bb_unit *), void *arg)
{
    bb_spin_lock(&p->lock);
    for (bb_unit *u = p->head; u; u = u->next)
        fn(arg, u);
    bb_spin_unlock(&p->lock);
}

static bool pushes_at_head(bb_pool_ctx ctx)
{
    return (ctx & (ABT_POOL_CONTEXT_OP_THREAD_CREATE | ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO |
                   ABT_POOL_CONTEXT_OP_THREAD_REVIVE | ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO)) != 0;
}

static bool pops_at_tail(bb_pool_ctx ctx)
{
    return (ctx & ABT_POOL_CONTEXT_OWNER_SECONDARY) != 0;
}

/* ---- the lists: a private pool's as they are, a shared one's under its lock ---- */

static void deque_list_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    if (pushes_at_head(ctx))
        list_push_head(p, u);
    else
        list_push_tail(p, u);
}

/* The push of either kind: `deque` for RANDWS. */
static inline void kind_list_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx, bool deque)
{
    if (deque)
        deque_list_push(p, u, ctx);
    else
        list_push_tail(p, u);
}

static bb_unit *deque_list_pop(bb_pool *p, bb_pool_ctx ctx)
{
    return pops_at_tail(ctx) ? list_pop_tail(p) : list_pop_head(p);
}

/* A creator pushed by ABT_thread_create_to sits at the end its push chose:
 * the FIFO's tail, the deque's head. It is ours again only if it is still
 * there (deeper in the list, others were pushed after it and go first) and
 * has no request pending: a cancel or a migration is for its scheduler to
 * serve (bb_unit_run). */
static bool take_back_at(bb_pool *p, bb_unit *u, const bb_unit *child, bool at_head)
{
    if ((at_head ? p->head : p->tail) != u || u->wait_target != child ||
        bb_load_relaxed(&u->requests) != 0)
        return false;
    if (at_head)
        (void)list_pop_head(p);
    else
        (void)list_pop_tail(p);
    return true;
}

/* ---- private: one ES, no atomics ----
 *
 * Only the pool's home changes its list. A private pool that no scheduler
 * holds has no home, and is open to every thread (bb_pool_touchable_here):
 * the library itself may then change it from two ESs at once, say where
 * one ES finishes a move into it while another ES's move takes the same
 * ULT out. So without a home a private pool works as a shared one: under
 * its lock, and a push looks for a pending move, as shared_push does.
 * bb_sched_attach gives it a home under that lock, so that no such call is
 * still inside when the home starts to change the list without it; one
 * that finds a home under the lock treats the pool as another ES's. */

static inline bool is_homeless(const bb_pool *p)
{
    return bb_load_relaxed(&p->home) == NULL;
}

/* Under p->lock: the pool got a home meanwhile, and it is another ES. */
static inline bool homed_elsewhere(const bb_pool *p)
{
    const bb_xstream *home = bb_load_relaxed(&p->home);
    return home && home != bb_self_xstream();
}

static void homeless_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx, bool deque);

static void fifo_private_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    if (__builtin_expect(is_homeless(p), 0))
        homeless_push(p, u, ctx, false);
    else
        list_push_tail(p, u);
}

static void deque_private_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    if (__builtin_expect(is_homeless(p), 0))
        homeless_push(p, u, ctx, true);
    else
        deque_list_push(p, u, ctx);
}

static __attribute__((noinline)) bb_unit *homeless_pop(bb_pool *p, bb_pool_ctx ctx, bool deque)
{
    bb_spin_lock(&p->lock);
    bb_unit *u = NULL;
    if (!homed_elsewhere(p))
        u = deque ? deque_list_pop(p, ctx) : list_pop_head(p);
    bb_spin_unlock(&p->lock);
    return u;
}

static bb_unit *fifo_private_pop(bb_pool *p, bb_pool_ctx ctx)
{
    if (__builtin_expect(is_homeless(p), 0))
        return homeless_pop(p, ctx, false);
    return list_pop_head(p);
}

static bb_unit *deque_private_pop(bb_pool *p, bb_pool_ctx ctx)
{
    if (__builtin_expect(is_homeless(p), 0))
        return homeless_pop(p, ctx, true);
    return deque_list_pop(p, ctx);
}

static int private_remove(bb_pool *p, bb_unit *u)
{
    if (!is_homeless(p))
        return list_remove(p, u);
    bb_spin_lock(&p->lock);
    int err = homed_elsewhere(p) ? list_take_out_if(p, u, false) : list_remove(p, u);
    bb_spin_unlock(&p->lock);
    return err;
}

static bool private_take_back_at(bb_pool *p, bb_unit *u, const bb_unit *child, bool at_head)
{
    if (!is_homeless(p))
        return take_back_at(p, u, child, at_head);
    bb_spin_lock(&p->lock);
    bool taken = !homed_elsewhere(p) && take_back_at(p, u, child, at_head);
    bb_spin_unlock(&p->lock);
    return taken;
}

static bool fifo_private_take_back(bb_pool *p, bb_unit *u, const bb_unit *child)
{
    return private_take_back_at(p, u, child, false);
}

static bool deque_private_take_back(bb_pool *p, bb_unit *u, const bb_unit *child)
{
    return private_take_back_at(p, u, child,
                                pushes_at_head(ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO));
}

/* ---- shared: any number of ESs, one spinlock ---- */

/* Out of line: only a push into a pool with a sleeper gets here. Rings one
 * sleeper, and if `and_another` a second one, a scheduler's if one sleeps
 * (see bb_pool_take_drain_sleeper_locked). */
static __attribute__((noinline)) void unlock_and_wake(bb_pool *p, bool and_another)
{
    bb_pool_sleeper *s = bb_pool_take_sleeper_locked(p);
    bb_pool_sleeper *t = and_another && s ? bb_pool_take_drain_sleeper_locked(p) : NULL;
    bb_spin_unlock(&p->lock);
    if (s)
        bb_pool_ring_sleeper(s);
    if (t)
        bb_pool_ring_sleeper(t);
}

/* A unit is in: let go of the lock, and wake a sleeper if there is one. */
static inline void unlock_after_push(bb_pool *p)
{
    if (p->sleepers)
        unlock_and_wake(p, false);
    else
        bb_spin_unlock(&p->lock);
}

/* After the push of a ULT that `p` counted as blocked, under the same lock
 * (bb_pool_ops.push_resumed): the count drops after the push, so that nobody
 * sees the unit neither counted nor queued (bb_pool_is_drained). If it drops
 * to zero, a second sleeper is woken, as bb_unit_uncount_blocked would: the
 * first may be a caller of ABT_pool_pop_wait that takes the unit, while a
 * scheduler waits for the pool to drain so that it can finish. */
static inline void unlock_after_resume(bb_pool *p)
{
    bool drained_of_blocked = __atomic_sub_fetch(&p->num_blocked, 1, __ATOMIC_ACQ_REL) == 0;
    if (p->sleepers)
        unlock_and_wake(p, drained_of_blocked);
    else
        bb_spin_unlock(&p->lock);
}

/* A unit that arrives with a move pending goes on to the move's target
 * instead. Its migrator may have tried to take it out of this pool while it
 * was on its way here (made ready, not pushed yet), and then left the move to
 * whoever pushes it (bb_unit_migrate). The look at the request is made under
 * the lock, so it comes after any such try: either the try found the unit
 * here, or this finds the request. */
static __attribute__((noinline)) void unlock_and_forward(bb_pool *p, bb_unit *u, bb_pool_ctx ctx,
                                                         bool resumed)
{
    bb_spin_unlock(&p->lock);
    bb_unit_forward(u, p, ctx, resumed);
}

/* `deque` and `resumed` are constants: the push of a RANDWS pool, and that
 * of bb_pool_ops.push_resumed. */
static inline void shared_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx, bool deque, bool resumed)
{
    bb_spin_lock(&p->lock);
    if (bb_unit_has_move_pending(u)) {
        unlock_and_forward(p, u, ctx, resumed);
        return;
    }
    kind_list_push(p, u, ctx, deque);
    list_mark_in(p, u);
    if (resumed)
        unlock_after_resume(p);
    else
        unlock_after_push(p);
}

/* The push into a private pool without a home (see "private" above), under
 * its lock: a unit with a move pending goes on to the move's target, as in
 * shared_push. `resumed`: the pool counts `u` (push_resumed), and the count
 * drops under the same hold. Returns false, having done nothing, if the pool
 * got a home on another ES meanwhile. */
static bool push_homeless(bb_pool *p, bb_unit *u, bb_pool_ctx ctx, bool deque, bool resumed)
{
    bb_spin_lock(&p->lock);
    if (homed_elsewhere(p)) {
        bb_spin_unlock(&p->lock);
        return false;
    }
    if (bb_unit_has_move_pending(u)) {
        unlock_and_forward(p, u, ctx, resumed);
        return true;
    }
    kind_list_push(p, u, ctx, deque);
    if (resumed)
        __atomic_sub_fetch(&p->num_blocked, 1, __ATOMIC_ACQ_REL);
    bb_spin_unlock(&p->lock);
    return true;
}

static __attribute__((noinline)) void homeless_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx,
                                                    bool deque)
{
    if (!push_homeless(p, u, ctx, deque, false))
        bb_pool_push_migrated(p, u); /* through its incoming stack */
}

/* bb_pool_ops.push_resumed of a private pool. Without a home, the push and
 * the drop of the count are one hold of the lock, as in a shared pool, so
 * that another ES cannot take the unit out, run it and free it while the
 * pool still counts it. With one, only the home changes the list, and the
 * count drops after the push; another ES's pool gets the unit through its
 * incoming stack. */
static void private_push_resumed(bb_pool *p, bb_unit *u, bb_pool_ctx ctx, bool deque)
{
    if (is_homeless(p) && push_homeless(p, u, ctx, deque, true))
        return;
    if (!bb_pool_surely_open_to(p, bb_self_xstream()))
        bb_pool_push_migrated(p, u);
    else
        kind_list_push(p, u, ctx, deque);
    bb_unit_uncount_blocked(p, p);
}

static void fifo_private_push_resumed(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    private_push_resumed(p, u, ctx, false);
}

static void deque_private_push_resumed(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    private_push_resumed(p, u, ctx, true);
}

static void fifo_shared_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    shared_push(p, u, ctx, false, false);
}

static void fifo_shared_push_resumed(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    shared_push(p, u, ctx, false, true);
}

static void deque_shared_push(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    shared_push(p, u, ctx, true, false);
}

static void deque_shared_push_resumed(bb_pool *p, bb_unit *u, bb_pool_ctx ctx)
{
    shared_push(p, u, ctx, true, true);
}

static bb_unit *fifo_shared_pop(bb_pool *p, bb_pool_ctx ctx)
{
    (void)ctx;
    if (list_is_empty(p))
        return NULL; /* idle schedulers poll: keep the lock's line shared */
    bb_spin_lock(&p->lock);
    bb_unit *u = list_pop_head(p);
    if (u)
        list_mark_out(u);
    bb_spin_unlock(&p->lock);
    return u;
}

static bb_unit *deque_shared_pop(bb_pool *p, bb_pool_ctx ctx)
{
    if (list_is_empty(p))
        return NULL;
    bb_spin_lock(&p->lock);
    bb_unit *u = deque_list_pop(p, ctx);
    if (u)
        list_mark_out(u);
    bb_spin_unlock(&p->lock);
    return u;
}

static int shared_remove(bb_pool *p, bb_unit *u)
{
    bb_spin_lock(&p->lock);
    int err = list_take_out_if(p, u, list_marks(p, u));
    if (err == ABT_SUCCESS)
        list_mark_out(u);
    bb_spin_unlock(&p->lock);
    return err;
}

static bool shared_take_back_at(bb_pool *p, bb_unit *u, const bb_unit *child, bool at_head)
{
    if (list_is_empty(p))
        return false;
    bb_spin_lock(&p->lock);
    bool taken = take_back_at(p, u, child, at_head);
    if (taken)
        list_mark_out(u);
    bb_spin_unlock(&p->lock);
    return taken;
}

static bool fifo_shared_take_back(bb_pool *p, bb_unit *u, const bb_unit *child)
{
    return shared_take_back_at(p, u, child, false);
}

static bool deque_shared_take_back(bb_pool *p, bb_unit *u, const bb_unit *child)
{
    return shared_take_back_at(p, u, child, pushes_at_head(ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO));
}

#define BUILTIN_OPS(push_fn, pop_fn, remove_fn, take_back_fn, push_resumed_fn)            \
    {                                                                                      \
        .push = push_fn, .pop = pop_fn, .is_empty = list_is_empty, .size = list_size,     \
        .remove = remove_fn, .take_back = take_back_fn,                                    \
        .pop_wait = bb_pool_pop_wait_generic,                                              \
        .pop_timedwait = bb_pool_pop_timedwait_generic, .push_resumed = push_resumed_fn,   \
        .for_each = for_each_locked, .destroy = NULL                                       \
    }

static const bb_pool_ops fifo_private =
    BUILTIN_OPS(fifo_private_push, fifo_private_pop, private_remove, fifo_private_take_back,
                fifo_private_push_resumed);
static const bb_pool_ops fifo_shared =
    BUILTIN_OPS(fifo_shared_push, fifo_shared_pop, shared_remove, fifo_shared_take_back,
                fifo_shared_push_resumed);
static const bb_pool_ops deque_private =
    BUILTIN_OPS(deque_private_push, deque_private_pop, private_remove, deque_private_take_back,
                deque_private_push_resumed);
static const bb_pool_ops deque_shared =
    BUILTIN_OPS(deque_shared_push, deque_shared_pop, shared_remove, deque_shared_take_back,
                deque_shared_push_resumed);

static const uint32_t builtin_caps =
    BB_POOL_CAN_SIZE | BB_POOL_CAN_REMOVE | BB_POOL_CAN_POP_WAIT | BB_POOL_CAN_PRINT;

int bb_pool_create_builtin(int kind, int access, bool automatic, bb_pool **out)
{
    bool priv = access == ABT_POOL_ACCESS_PRIV;
    const bb_pool_ops *ops;
    switch (kind) {
    case ABT_POOL_FIFO:
    case ABT_POOL_FIFO_WAIT:
        ops = priv ? &fifo_private : &fifo_shared;
        break;
    case ABT_POOL_RANDWS:
        ops = priv ? &deque_private : &deque_shared;
        break;
    default:
        return ABT_ERR_INV_POOL_KIND;
    }
    uint32_t caps = builtin_caps | (priv ? 0 : BB_POOL_WAKES_SLEEPERS) |
                    (priv && ops == &fifo_private ? BB_POOL_PRIVATE_FIFO : 0);
    bb_pool *p = bb_pool_alloc(ops, caps, kind, access, automatic);
    if (!p)
        return ABT_ERR_MEM;
    *out = p;
    return ABT_SUCCESS;
}
