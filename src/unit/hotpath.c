/*
 * The critical path: the public calls of a fork-join or a yield loop
 * (ABT_thread_create / join / free / yield / yield_to, ABT_task_create /
 * free), read in one sitting.
 *
 * Each call first tries a shortcut for the common case, which works with
 * plain loads and stores on the caller's own ES, and otherwise takes the
 * general path of unit.c and switch.c, which handles every case (attributes,
 * user pools, tools, other ESs, cancel and migration requests). A shortcut
 * does exactly what the general path would do, minus the detours:
 *
 *  - create and free: default attributes and a freed unit (a descriptor,
 *    with its stack for a ULT) in the caller's ES cache, whose cold fields
 *    are zero already; a private FIFO pool is pushed to inline, a user pool
 *    makes its unit and gets it back at free. Free releases into that
 *    cache; a unit that has terminated as its creator made it (its small
 *    word says so) needs no other test.
 *  - join bypass: a joiner ULT whose joinee has not started and waits in a
 *    pool of the joiner's ES (in a private FIFO: as its newest unit) takes
 *    it out and runs it itself. A ULT joinee
 *    runs as the joiner's child: when it finishes (or yields, or blocks) it
 *    switches straight back to the joiner, with no scheduler in between. A
 *    tasklet joinee runs as a plain call, but only on an OS thread's own
 *    stack (the primary ULT's), since a ULT's stack may be too small for it.
 *  - direct yield: a ULT run by its ES's main scheduler, when that is a
 *    predefined in-order loop (BASIC, PRIO, BASIC_WAIT, the default) whose
 *    first pool is the ULT's pool, a private FIFO or a user pool, does what
 *    the scheduler would: puts itself into the pool and switches to what
 *    the pool gives next (the head of the FIFO; what the user pool's pop
 *    returns), counting one round of the scheduler; when the scheduler's
 *    events are due, the yield goes through the scheduler. yield_to a ULT
 *    of a private FIFO likewise. Through a private FIFO, the yield ends by
 *    a tail call of the context swap (bb_switch_last): it builds no frame,
 *    and the ULT, when resumed, returns from the swap straight into its
 *    caller. So, while a sanitizer or valgrind watches switches (which the
 *    bare swap does not tell them), that yield takes the general path.
 *
 * Each shortcut can be switched off at run time (bb_runtime.h, ABT_OPT_*),
 * and none is taken while a tool callback is registered.
 */
#include "bb_attr.h"
#include "bb_caller.h"
#include "bb_mem.h"
#include "bb_pool.h"
#include "bb_pool_list.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_switch.h"
#include "bb_tool.h"
#include "bb_unit.h"
#include "bb_xstream.h"

uint32_t bb_shortcuts;

void bb_shortcuts_update(void)
{
    bool usable = bb_is_up() && bb_load_relaxed(&bb_tool_mask) == 0;
    uint32_t on = usable ? bb_rt.config.shortcuts : 0u;
    if ((on & BB_SHORTCUT_YIELD) && !bb_fiber_tools.any)
        on |= BB_SHORTCUT_YIELD_SWAP;
    if (bb_fiber_tools.any)
        on &= ~(uint32_t)BB_SHORTCUT_RETURN; /* the tools must see every change of stack */
    bb_store_relaxed(&bb_shortcuts, on);
}

/* ---- create ---------------------------------------------------------------- */

/* The caller's ES, if the create shortcut may use it for `pool`. */
static inline bb_xstream *create_shortcut_es(bb_pool *pool)
{
    bb_xstream *es = bb_self_xstream();
    if (bb_shortcut_on(BB_SHORTCUT_CREATE_FREE) && es && pool)
        return es;
    return NULL;
}

/* The general paths are out of line, so that the shortcuts build no frame. */
static __attribute__((noinline)) int thread_create_general(bb_pool *p, void (*func)(void *),
                                                           void *arg, ABT_thread_attr attr,
                                                           ABT_thread *newthread)
{
    if (newthread)
        *newthread = ABT_THREAD_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!p)
        return ABT_ERR_INV_POOL;
    return bb_thread_create_general(p, func, arg, attr, (bb_unit **)(void *)newthread);
}

static __attribute__((noinline)) int task_create_general(bb_pool *p, void (*func)(void *),
                                                         void *arg, ABT_task *newtask)
{
    if (newtask)
        *newtask = ABT_TASK_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!p)
        return ABT_ERR_INV_POOL;
    bb_unit_spec spec = {.is_ult = false, .named = newtask != NULL, .migratable = true};
    return bb_unit_create(p, func, arg, &spec, (bb_unit **)(void *)newtask);
}

/* Whether the caller's ES cache has what a new unit needs. */
static inline bool cache_has_unit(const bb_xstream *es, bool is_ult)
{
    return is_ult && !bb_xstream_lends_stacks(es) ? es->cache.ults != NULL
                                                   : es->cache.descs != NULL;
}

/* A unit from the caller's ES cache (cache_has_unit), with its fields set
 * for `pool`. A freed ULT keeps its default-size stack and its stack flags;
 * a ULT with a lazy stack has none yet. The cold fields of a cached
 * descriptor are zero already (bb_unit_make_free). */
static inline __attribute__((always_inline)) bb_unit *
take_cached_unit(bb_xstream *es, bool is_ult, bb_pool *pool, void (*func)(void *), void *arg,
                 bool named)
{
    bb_unit *u;
    uint32_t flags = named ? BB_UNIT_NAMED : 0;
    if (is_ult && !bb_xstream_lends_stacks(es)) {
        u = bb_mem_cache_pop(&es->cache.ults, &es->cache.num_ults);
        flags |= (u->flags & BB_UNIT_STACK_FLAGS) | BB_UNIT_ULT | BB_UNIT_PLAIN_ULT;
    } else {
        u = bb_mem_cache_pop(&es->cache.descs, &es->cache.num_descs);
        u->stack = NULL;
        u->stacksize = is_ult ? es->cache.stack_size : 0;
        flags |= is_ult ? BB_UNIT_ULT | BB_UNIT_PLAIN_ULT : 0;
    }
    bb_unit_init_cached(u, pool, func, arg, flags);
    return u;
}

/* The create shortcut into a built-in pool: a unit from the cache of the
 * caller's ES, pushed. A private FIFO (`private_fifo`, a constant for the
 * compiler, so that its push is a separate block) is pushed to inline: the
 * caller's ES is its home (checked by the caller, see create_route). */
static inline __attribute__((always_inline)) int
create_from_cache(bb_xstream *es, bool is_ult, bool private_fifo, bb_pool *pool,
                  void (*func)(void *), void *arg, ABT_thread *newunit)
{
    bb_unit *u = take_cached_unit(es, is_ult, pool, func, arg, newunit != NULL);
    if (newunit)
        *newunit = bb_unit_handle(u); /* before the push: unnamed, it may end at once */
    if (private_fifo)
        list_push_tail(pool, u);
    else
        bb_pool_push(pool, u, ABT_POOL_CONTEXT_OP_THREAD_CREATE);
    return ABT_SUCCESS;
}

/* A user pool's create-unit callback failed: `u` goes back to the cache of
 * the caller's ES, and the create fails as the general path's would. */
static __attribute__((noinline)) int undo_create(bb_unit *u, int err, ABT_thread *newunit)
{
    bb_mem_cache *c = &bb_self_xstream()->cache;
    bb_unit_make_free(u);
    if (u->stack)
        bb_mem_cache_push(&c->ults, &c->num_ults, u);
    else
        bb_mem_cache_push(&c->descs, &c->num_descs, u);
    if (newunit)
        *newunit = ABT_THREAD_NULL;
    return err;
}

/* The create shortcut into a user pool that `es` may push to (create_route),
 * out of line so that the built-in pools' one builds no stack frame. The
 * pool makes its unit before the push, where a failure can still be
 * reported. */
static __attribute__((noinline)) int create_in_user_pool(bb_xstream *es, bool is_ult,
                                                         bb_pool *pool, void (*func)(void *),
                                                         void *arg, ABT_thread *newunit)
{
    bb_unit *u = take_cached_unit(es, is_ult, pool, func, arg, newunit != NULL);
    int err = bb_unit_attach_user_unit(u, pool);
    if (err != ABT_SUCCESS)
        return undo_create(u, err, newunit);
    if (newunit)
        *newunit = bb_unit_handle(u); /* before the push: unnamed, it may end at once */
    bb_pool_push(pool, u, ABT_POOL_CONTEXT_OP_THREAD_CREATE);
    return ABT_SUCCESS;
}

/* Which create shortcut fits `pool` for a unit made on `es`, from one look
 * at its home (bb_pool.h: only private pools have one). A private FIFO of
 * `es` is pushed to inline. A pool with another home, a user pool too, takes
 * the general path, which checks the access. */
enum create_route { CREATE_INLINE, CREATE_USER_POOL, CREATE_PUSH, CREATE_GENERAL };

static inline enum create_route create_route(const bb_xstream *es, const bb_pool *pool)
{
    const bb_xstream *home = bb_load_relaxed(&pool->home);
    if (home == es && bb_pool_can(pool, BB_POOL_PRIVATE_FIFO)) /* never a user pool */
        return CREATE_INLINE;
    bool open = !home || home == es;
    if (__builtin_expect(pool->user != NULL, 0))
        return open ? CREATE_USER_POOL : CREATE_GENERAL;
    return open ? CREATE_PUSH : CREATE_GENERAL;
}

/* ABT_thread_create and ABT_task_create. Each route tests the cache next
 * to its pop, and every path ends in a tail call or a return. */
static inline __attribute__((always_inline)) int
create_unit(bool is_ult, bb_pool *p, void (*func)(void *), void *arg, ABT_thread_attr attr,
            ABT_thread *newunit)
{
    bb_xstream *es = create_shortcut_es(p);
    if (es && attr == ABT_THREAD_ATTR_NULL) {
        switch (create_route(es, p)) {
        case CREATE_INLINE:
            if (cache_has_unit(es, is_ult))
                return create_from_cache(es, is_ult, true, p, func, arg, newunit);
            break;
        case CREATE_USER_POOL:
            if (cache_has_unit(es, is_ult))
                return create_in_user_pool(es, is_ult, p, func, arg, newunit);
            break;
        case CREATE_PUSH:
            if (cache_has_unit(es, is_ult))
                return create_from_cache(es, is_ult, false, p, func, arg, newunit);
            break;
        case CREATE_GENERAL:
            break;
        }
    }
    if (is_ult)
        return thread_create_general(p, func, arg, attr, newunit);
    return task_create_general(p, func, arg, newunit);
}

int ABT_thread_create(ABT_pool pool, void (*thread_func)(void *), void *arg,
                      ABT_thread_attr attr, ABT_thread *newthread)
{
    return create_unit(true, bb_pool_of(pool), thread_func, arg, attr, newthread);
}

/* Child-first (bb_ult_run_child_first): the new ULT runs at once. The
 * shortcut takes its descriptor from the cache; a user pool, which must make
 * its unit first, and any attribute take the general path. */
int ABT_thread_create_to(ABT_pool pool, void (*thread_func)(void *), void *arg,
                         ABT_thread_attr attr, ABT_thread *newthread)
{
    bb_pool *p = bb_pool_of(pool);
    bb_xstream *es = create_shortcut_es(p);
    if (es && attr == ABT_THREAD_ATTR_NULL && !p->user && cache_has_unit(es, true) &&
        (es->current->flags & BB_UNIT_PLAIN_ULT) && bb_pool_surely_open_to(p, es)) {
        bb_unit *u = take_cached_unit(es, true, p, thread_func, arg, newthread != NULL);
        if (newthread)
            *newthread = bb_unit_handle(u);
        bb_ult_run_child_first(es->current, u, ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO);
        return ABT_SUCCESS;
    }
    return bb_thread_create_to_general(pool, thread_func, arg, attr, newthread);
}

int ABT_task_create(ABT_pool pool, void (*task_func)(void *), void *arg, ABT_task *newtask)
{
    return create_unit(false, bb_pool_of(pool), task_func, arg, ABT_THREAD_ATTR_NULL, newtask);
}

/* ---- join and free ----------------------------------------------------------- */

/* Whether the main scheduler of `es` serves `pool` (bb_sched_has_pool). */
static bool serves_pool(const bb_xstream *es, const bb_pool *pool)
{
    return bb_sched_has_pool(es->main_sched, pool);
}

/* Take `u` out of its pool if it waits in one that `es` serves. `u` may
 * have been taken by another ES meanwhile and be running there, changing its
 * pool: its pool is read once, atomically, and looked at only once it is
 * known to be one of ours (alive: our scheduler holds it). A shared pool's
 * remove then decides, under its lock, whether `u` still waits in it.
 * When other units wait, the scheduler runs them all in one pass, which
 * costs less than a bypass per join (a fork-join of N units blocks the
 * joiner once, not N times): `newest_only` takes from a private FIFO only
 * its newest unit, from any other pool only a unit that waits alone (its
 * size can be read without its lock). */
static inline bool take_out_of_own_pool(bb_xstream *es, bb_unit *u, bool newest_only)
{
    bb_pool *pool = bb_load_relaxed(&u->pool);
    if (!serves_pool(es, pool) || pool->user || !bb_pool_can(pool, BB_POOL_CAN_REMOVE))
        return false;
    if (bb_pool_can(pool, BB_POOL_PRIVATE_FIFO)) {
        if (!newest_only)
            return list_remove(pool, u) == ABT_SUCCESS;
        if (pool->tail != u)
            return false;
        list_pop_tail(pool);
        return true;
    }
    if (newest_only && bb_load_relaxed(&pool->size) > 1) /* a built-in pool */
        return false;
    return pool->ops->remove(pool, u) == ABT_SUCCESS;
}

/* Join bypass (see the top of the file). Returns whether `u` ran; it may not
 * have finished (it yielded or blocked, and went back where it belongs). */
static inline bool may_bypass(bb_unit *self, bb_unit *u)
{
    return bb_shortcut_on(BB_SHORTCUT_BYPASS) && bb_unit_is_ult(self) &&
           bb_load_relaxed(&u->xstream) == NULL && !bb_unit_has_requests(u) &&
           (bb_unit_is_ult(u) || (self->flags & BB_UNIT_PRIMARY));
    /* not: started, a cancel or migration to serve, or a tasklet and no stack for it */
}

/* Whether `u`, a ULT just taken out of its pool, has run before after all:
 * may_bypass looked before the pool's lock was taken, and meanwhile another
 * ES sharing the pool may have started it and put it back (a yield). Its
 * context is saved then (or about to be: waited for), which a ULT that
 * never ran has not. */
static inline bool has_run_since(bb_unit *u)
{
    bb_unit_wait_until_saved(u);
    return u->ctx != NULL;
}

bool bb_join_bypass(bb_unit *self, bb_unit *u)
{
    bb_xstream *es = bb_self_xstream();
    bool is_ult = bb_unit_is_ult(u);
    if (!may_bypass(self, u) || !take_out_of_own_pool(es, u, true))
        return false; /* see above, or not waiting in a pool of this ES */
    if (is_ult && __builtin_expect(has_run_since(u), 0)) {
        bb_unit_run(es, u); /* resumed as its child, as ABT_self_schedule would */
        return true;
    }
    bb_store_relaxed(&u->xstream, es);
    bb_store_relaxed(&u->state, (uint32_t)ABT_THREAD_STATE_RUNNING);
    bb_store_relaxed(&es->current, u);
    if (is_ult) {
        bb_unit_wait_until_saved(u);
        u->parent = self;
        bb_owned_add(&es->ults_joiner_run, 1); /* shown by print */
        bb_ult_begin(es, self, u); /* back here once u leaves its context */
    } else {
        /* On the joiner's stack: an exception escaping the tasklet must not
         * reach the joiner (outermost.c). */
        bb_call_outermost(u->func, bb_unit_start_arg(u));
        bb_store_relaxed(&es->current, self);
        bb_unit_terminate(u);
    }
    return true;
}

/* The primary ULT and schedulers are never joined or freed by the user; nor
 * is the caller (`self`) itself, nor a unit freed already (a stale copy of
 * its handle: descriptors stay readable). */
static inline bool joinable_by(const bb_unit *self, bb_unit *u)
{
    return !(u->flags & (BB_UNIT_PRIMARY | BB_UNIT_SCHED)) && u != self &&
           bb_load_relaxed(&u->state) != BB_UNIT_STATE_FREE;
}

static int check_joinable(bb_unit *u)
{
    return joinable_by(bb_self_unit(), u) ? ABT_SUCCESS : ABT_ERR_INV_THREAD;
}

int ABT_thread_join(ABT_thread thread)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(thread);
    int err = check_joinable(u);
    return err != ABT_SUCCESS ? err : bb_unit_join(u);
}

/* A descriptor about to go back to a cache; `plain`: its cold fields are
 * known to be zero (free_unit's test of its small word). */
static inline void make_free(bb_unit *u, bool plain)
{
    if (plain) {
        bb_store_relaxed(&u->joiner, BB_JOIN_NOBODY);
        bb_store_relaxed(&u->state, BB_UNIT_STATE_FREE);
    } else {
        bb_unit_make_free(u);
    }
}

/* Put the terminated `u` into the cache of `es` if it has room and `u` needs
 * nothing else: a default-size stack from the cache goes with it, a lazy
 * one went back at its end, any other stack goes the general way. */
static inline bool cache_terminated(bb_xstream *es, bb_unit *u, bool plain)
{
    bb_mem_cache *c = &es->cache;
    if (u->flags & BB_UNIT_CACHED_STACK) {
        if (c->num_ults >= c->max_ults)
            return false;
        make_free(u, plain);
        bb_mem_cache_push(&c->ults, &c->num_ults, u);
        return true;
    }
    if (u->stack || c->num_descs >= c->max_descs)
        return false;
    make_free(u, plain);
    bb_mem_cache_push(&c->descs, &c->num_descs, u);
    return true;
}

/* A user pool gets its unit back through its own code, which may yield or
 * block: the caller may come back on another ES, whose cache is then the
 * one it may use. Returns that ES. */
static bb_xstream *drop_user_unit(bb_unit *u)
{
    bb_unit_drop_user_unit(u);
    return bb_self_xstream();
}

/* A terminated unit whose memory goes straight back to the caller's ES
 * cache (no keys, no migration callback, no tool state to drop: those go
 * the general way, bb_unit_release_memory; a user pool gets its unit back
 * first). */
static inline bool release_to_cache(bb_xstream *es, bb_unit *u)
{
    if (u->keys || u->migrate_cb || __builtin_expect(bb_fiber_tools.any, 0))
        return false;
    if (u->unit_pool)
        es = drop_user_unit(u);
    return cache_terminated(es, u, false);
}

/* A free without the shortcuts: checks, joins and releases in general. */
static __attribute__((noinline)) int free_general(ABT_thread *thread)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_unit *u = thread ? bb_unit_of(*thread) : NULL;
    if (!u)
        return ABT_ERR_INV_THREAD;
    int err = check_joinable(u);
    if (err == ABT_SUCCESS)
        err = bb_unit_free(u);
    if (err == ABT_SUCCESS)
        *thread = ABT_THREAD_NULL;
    return err;
}

typedef int (*free_fn)(ABT_thread *);

/* The free shortcut for a unit `u` of the caller's ES `es` that has not
 * terminated, or is not plain: it is joined (by the join bypass if it can)
 * and goes back to the cache if it can. `general` reports what is wrong
 * with a unit nobody may free. (`u` comes before `es`, as in
 * free_user_made: free_unit's tail calls then pass it in one register.) */
static __attribute__((noinline)) int free_joining(ABT_thread *thread, bb_unit *u,
                                                  bb_xstream *es, free_fn general)
{
    if (!joinable_by(es->current, u))
        return general(thread);
    if (!bb_unit_is_terminated(u) &&
        !(bb_join_bypass(es->current, u) && bb_unit_is_terminated(u))) {
        bb_unit_block_until_terminated(u);
        es = bb_self_xstream(); /* the caller may have resumed on another ES */
    }
    if (!release_to_cache(es, u))
        bb_unit_release_memory(u);
    *thread = ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

/* The free shortcut for a terminated unit of a user pool: as for a plain
 * one, after giving the pool's unit back. Out of line: the built-in pools'
 * needs no frame. */
static __attribute__((noinline)) int free_user_made(ABT_thread *thread, bb_unit *u,
                                                    free_fn general)
{
    bb_xstream *es = drop_user_unit(u);
    if (!cache_terminated(es, u, true))
        return free_joining(thread, u, es, general);
    *thread = ABT_THREAD_NULL;
    return ABT_SUCCESS;
}

/* The free shortcut: a terminated unit (the common case of a fork-join,
 * whose frees find their units done) whose small word is as the create
 * shortcut made it (no cold field set, no request, no lent stack) is a plain
 * user unit (the runtime's own have cold_set), which goes back to the cache
 * as it is. Not a stale handle either: a free descriptor has no
 * BB_JOIN_DONE. `general` is the free without shortcuts. */
static inline __attribute__((always_inline)) int free_unit(ABT_thread *thread, free_fn general)
{
    bb_xstream *es = bb_self_xstream();
    bb_unit *u = thread ? bb_unit_of(*thread) : NULL;
    if (!es || !u || !bb_shortcut_on(BB_SHORTCUT_CREATE_FREE))
        return general(thread);
    if (bb_unit_is_terminated(u)) { /* others may set a request meanwhile: */
        if (bb_word_equals(&u->small, bb_unit_small_fresh(false)) &&
            cache_terminated(es, u, true)) {
            *thread = ABT_THREAD_NULL;
            return ABT_SUCCESS;
        }
        if (bb_word_equals(&u->small, bb_unit_small_fresh(true)))
            return free_user_made(thread, u, general);
    }
    return free_joining(thread, u, es, general);
}

int ABT_thread_free(ABT_thread *thread)
{
    return free_unit(thread, free_general);
}

static __attribute__((noinline)) int task_free_general(ABT_task *task)
{
    int err = free_general(task);
    return err == ABT_ERR_INV_THREAD ? ABT_ERR_INV_TASK : err;
}

int ABT_task_free(ABT_task *task)
{
    return free_unit(task, task_free_general);
}

/* ---- join_many and free_many ------------------------------------------------ */

/* The join bypass for a whole list, in N+1 switches instead of 2N: the ULTs
 * of `list` that the bypass may run are taken out of their pools and run as
 * a chain, each one the parent of the one before it and `self` the parent
 * of the last, so that each hands the ES to the next when it finishes
 * (bb_switch_exit starts it on its stack) or leaves its context, and the
 * last one back to `self`. Waiting to run, they already show as running on
 * this ES. Only the list before its first invalid entry is chained: the
 * loops below report that entry having joined the ones before it. */
static void run_as_chain(bb_unit *self, ABT_thread *list, int n)
{
    bb_xstream *es = bb_self_xstream();
    bb_unit *first = NULL, *last = NULL;
    for (int i = 0; i < n; i++) {
        bb_unit *u = bb_unit_of(list[i]);
        if (!u)
            continue;
        if (!joinable_by(self, u))
            break;
        if (!bb_unit_is_ult(u) || !may_bypass(self, u) || !take_out_of_own_pool(es, u, false))
            continue;
        if (__builtin_expect(has_run_since(u), 0)) {
            bb_unit_run(es, u); /* not from its first line: resumed now, unchained */
            continue;
        }
        bb_store_relaxed(&u->xstream, es);
        bb_store_relaxed(&u->state, (uint32_t)ABT_THREAD_STATE_RUNNING);
        if (last)
            last->parent = u;
        else
            first = u;
        last = u;
    }
    if (!first)
        return;
    last->parent = self;
    bb_store_relaxed(&es->current, first);
    bb_switch(self, first, NULL, NULL); /* back here once the last leaves its context */
}

/* Whether a chain costs less than the scheduler: not under the SC step,
 * where the scheduler calls each ULT that never ran on its own stack, with
 * no switch at all. */
static bool chain_pays(void)
{
    bb_xstream *es = bb_self_xstream();
    return es && !(es->ult_steps & BB_STEP_SCHED_STACK);
}

/* Instead of a chain: the ULT `self` waits for each unit of `list` in turn,
 * running none itself, so that its first wait lets the scheduler run them
 * all in one pass, in the pools' order. As for the chain, only the list
 * before its first invalid entry. */
static void wait_for_list(bb_unit *self, ABT_thread *list, int n)
{
    for (int i = 0; i < n; i++) {
        bb_unit *u = bb_unit_of(list[i]);
        if (!u)
            continue;
        if (!joinable_by(self, u))
            break;
        if (!bb_unit_is_terminated(u))
            bb_unit_block_until_terminated(u);
    }
}

/* What join_many and free_many do first: check the list, run its chain. */
static int begin_many(int num, ABT_thread *list, bb_unit **self)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (num > 0 && !list)
        return ABT_ERR_INV_ARG;
    *self = bb_self_unit();
    if (*self && num > 1 && bb_unit_is_ult(*self)) {
        if (chain_pays())
            run_as_chain(*self, list, num);
        else
            wait_for_list(*self, list, num);
    }
    return ABT_SUCCESS;
}

int ABT_thread_join_many(int num_threads, ABT_thread *thread_list)
{
    bb_unit *self;
    int err = begin_many(num_threads, thread_list, &self);
    if (err != ABT_SUCCESS)
        return err;
    for (int i = 0; i < num_threads; i++) {
        if (thread_list[i] == ABT_THREAD_NULL)
            continue;
        err = ABT_thread_join(thread_list[i]);
        if (err != ABT_SUCCESS)
            return err;
    }
    return ABT_SUCCESS;
}

int ABT_thread_free_many(int num_threads, ABT_thread *thread_list)
{
    bb_unit *self;
    int err = begin_many(num_threads, thread_list, &self);
    if (err != ABT_SUCCESS)
        return err;
    for (int i = 0; i < num_threads; i++) {
        if (thread_list[i] == ABT_THREAD_NULL)
            continue;
        err = free_unit(&thread_list[i], free_general); /* it may block: ES read each time */
        if (err != ABT_SUCCESS)
            return err;
    }
    return ABT_SUCCESS;
}

/* ---- yield ------------------------------------------------------------------- */

/* A ULT that is not a scheduler. */
static inline bool is_plain_ult(const bb_unit *u)
{
    return (u->flags & BB_UNIT_PLAIN_ULT) != 0;
}

/* Count one round of `s` for a unit run without it, unless that round is
 * the one at which its events are due: then it must run, and nothing is
 * counted. */
static inline bool spend_round(bb_sched *s)
{
    if (__builtin_expect(bb_owned_dec_is_zero(&s->rounds_left), 0)) {
        s->rounds_left = 1;
        return false;
    }
    return true;
}

/* Whether `self`, run by `s` and a ULT of one of the scheduler's direct
 * pools (see the top of the file and bb_sched.h), may yield straight
 * through it; if so, the yield counts as one round of `s` (spend_round).
 * A request to `self` (a cancel or a migration that another thread asked
 * for) needs no test when another unit runs in its place: `self` goes back
 * into its pool, and whatever takes it out to run it serves the request
 * first, the scheduler itself or, through it, a direct yield that finds
 * `self` unsettled (can_run_directly). So `self` never runs on before the
 * request is served. Only a yield that would let `self` run on at once
 * tests (keep_running). */
static inline bool may_yield_through(bb_sched *s, bb_unit *self)
{
    return self->parent == s->unit && spend_round(s);
}

/* `next`, which the scheduler would run now, is a ULT (not a scheduler)
 * without a request to serve, its context saved (bb_unit_is_settled). */
static inline bool can_run_directly(bb_unit *next)
{
    return is_plain_ult(next) && bb_unit_is_settled(next);
}

/* `next`, out of its pool, becomes the running unit of `es` in the place
 * of `self`, as a child of self's parent; the caller switches to it. */
static inline void take_place(bb_xstream *es, bb_unit *self, bb_unit *next)
{
    next->parent = self->parent;
    bb_store_relaxed(&next->xstream, es);
    bb_store_relaxed(&next->state, (uint32_t)ABT_THREAD_STATE_RUNNING);
    bb_store_relaxed(&es->current, next);
}

/* `next` runs in the place of `self`, which is ready in its own pool.
 * Returns ABT_SUCCESS once `self` runs again: the yield's last call
 * (bb_switch_last), with no frame left of it when `self` resumes. */
static inline int start_directly(bb_xstream *es, bb_unit *self, bb_unit *next)
{
    bb_store_relaxed(&self->state, (uint32_t)ABT_THREAD_STATE_READY);
    take_place(es, self, next);
    return bb_switch_last(self, next);
}

/* After the yielder's context is saved: other ESs may run it from now on
 * (they waited for `switching`). */
static void publish_saved(void *arg)
{
    bb_store_release(&((bb_unit *)arg)->switching, 0u);
}

/* The scheduler `s` gets what its pool chose, `next` (or nothing), to run
 * next in its loop: not here, in the callback of the switch back to it,
 * which would leave the scheduler's context saved inside the callback, one
 * level deeper on its stack each time. Its last round ends the loop's pass
 * as soon as it is back, and the next pass starts with `next`; so its loop
 * looks for a handed unit once per pass, not once per unit. Out of line,
 * so that the common path builds no frame for it. */
static __attribute__((noinline)) void hand_to_scheduler(bb_xstream *es, bb_sched *s,
                                                        bb_unit *self, bb_unit *next)
{
    s->handed = next;
    s->rounds_left = 1;
    bb_store_relaxed(&es->current, self->parent);
    bb_switch(self, self->parent, publish_saved, self);
}

/* Whether the yield of `self` may end at once, the scheduler having
 * nothing else to run: unless a request waits for it. */
static inline bool keep_running(const bb_unit *self)
{
    return !bb_unit_has_requests(self);
}

/* The yield without the shortcut. Argobots 1.x: the old yield calls do
 * nothing (and succeed) when the caller cannot yield; ABT_self_yield reports
 * an error instead. Out of line, so that the shortcut builds no frame; the
 * shortcut's tests end in a tail call of it. A debugger's backtrace of a
 * ULT that yielded shows this function, then the caller of
 * ABT_thread_yield; of one that yielded directly, no frame of the library
 * at all: the innermost is its call of ABT_thread_yield. */
static __attribute__((noinline)) int yield_general(void)
{
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err == ABT_ERR_UNINITIALIZED)
        return err;
    if (err == ABT_SUCCESS && !bb_unit_is_main_sched(self))
        bb_ult_yield(self);
    return ABT_SUCCESS;
}

/* The direct yield through a user pool. The pool decides, exactly as when
 * its scheduler yields: `self` is pushed first, then the pool's pop picks
 * what runs next (a priority pool may give back `self` itself). Until its
 * context is saved, `self` is marked `switching`, since another ES may pop
 * it from a shared pool at once. A ULT the pool picks runs directly; a
 * tasklet, a unit with a request, or nothing goes to the scheduler. Out of
 * line, apart from the built-in pools' shortcut. */
static __attribute__((noinline)) int yield_through_user_pool(bb_xstream *es, bb_sched *s,
                                                             bb_unit *self)
{
    bb_pool *pool = s->direct_user_pool;
    if (!bb_shortcut_on(BB_SHORTCUT_YIELD) || self->pool != pool || /* NULL: never self->pool */
        !may_yield_through(s, self))
        return yield_general();
    bb_store_relaxed(&self->switching, 1u);
    bb_store_release(&self->state, (uint32_t)ABT_THREAD_STATE_READY);
    /* The pool's callbacks run as they would without the shortcut: as the
     * main scheduler, `self` being half-way out. A callback that waits (a
     * contended ABT_mutex_lock) then sleeps in the kernel, and one that
     * yields does nothing, instead of blocking or yielding `self` while it
     * is being pushed (which left it in the pool twice, or running on
     * another ES with this ES's bookkeeping). */
    bb_store_relaxed(&es->current, self->parent);
    bb_pool_push(pool, self, ABT_POOL_CONTEXT_OP_THREAD_YIELD);
    bb_unit *next = bb_pool_pop(pool);
    bb_store_relaxed(&es->current, self);
    if (next == self && keep_running(self)) {
        bb_store_relaxed(&self->state, (uint32_t)ABT_THREAD_STATE_RUNNING);
        bb_store_relaxed(&self->switching, 0u);
    } else if (next && bb_load_relaxed(&next->pool) == pool && can_run_directly(next)) {
        take_place(es, self, next);
        bb_switch(self, next, publish_saved, self);
    } else {
        hand_to_scheduler(es, s, self, next);
    }
    return ABT_SUCCESS;
}

/* The yield of `self`, a ULT of `es` that is not a scheduler. Every path
 * ends in a tail call or a return, so that it builds no frame. */
static inline int yield_from(bb_xstream *es, bb_unit *self)
{
    bb_sched *s = es->running_sched; /* bb_no_sched if none: no direct pool */
    bb_pool *pool = self->pool;      /* never NULL */
    if (pool != s->direct_pool)
        return yield_through_user_pool(es, s, self);
    if (!bb_shortcut_on(BB_SHORTCUT_YIELD_SWAP) || !may_yield_through(s, self))
        return yield_general();
    bb_unit *next = pool->head; /* associated with `pool`, as all in a private FIFO */
    if (!next && keep_running(self))
        return ABT_SUCCESS; /* with nothing else ready, the scheduler would run `self` again */
    if (!next || !can_run_directly(next)) {
        s->rounds_left++; /* not spent: the scheduler will count it */
        return yield_general();
    }
    list_rotate(pool, next, self); /* nobody else pops a private pool */
    return start_directly(es, self, next);
}

int ABT_thread_yield(void)
{
    bb_xstream *es = bb_self_xstream_or_outside();
    if (!is_plain_ult(es->current))
        return yield_general();
    return yield_from(es, es->current);
}

/* A pool whose list a ULT of `es` may change inline: a private FIFO that
 * the main scheduler of `es` serves; most often its first pool, which
 * the scheduler's direct_pool names when it is a private FIFO. */
static inline bool is_own_private_fifo(const bb_xstream *es, const bb_pool *pool)
{
    return (pool && pool == es->main_sched->direct_pool) ||
           (serves_pool(es, pool) && bb_pool_can(pool, BB_POOL_PRIVATE_FIFO));
}

/* yield_to without the shortcut: every check again. A caller that passes
 * them all has tried the shortcut already. */
static __attribute__((noinline)) int yield_to_general(ABT_thread thread)
{
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err == ABT_ERR_UNINITIALIZED)
        return err;
    if (err != ABT_SUCCESS)
        return ABT_SUCCESS; /* external thread or tasklet: nothing to do */
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *target = bb_unit_of(thread);
    if (!bb_unit_is_ult(target) || target == self || (self->flags & BB_UNIT_SCHED) ||
        (target->flags & BB_UNIT_SCHED))
        return ABT_ERR_INV_THREAD;
    if (bb_unit_state(target) != ABT_THREAD_STATE_READY ||
        bb_ult_yield_to(self, target) != ABT_SUCCESS)
        bb_ult_yield(self); /* target not waiting in a pool: plain yield */
    return ABT_SUCCESS;
}

/* yield_to needs no scheduler even on the general path: `target` takes the
 * caller's place as a child of the caller's parent. The shortcut only
 * moves both between their pools inline. `self` and `target` are distinct
 * ULTs, not schedulers. As yield_from, it builds no frame. */
static inline int yield_to_from(bb_xstream *es, bb_unit *self, bb_unit *target,
                                ABT_thread thread)
{
    bb_pool *pool = bb_load_relaxed(&target->pool); /* it may run on another ES */
    if (!bb_shortcut_on(BB_SHORTCUT_YIELD_SWAP) || bb_unit_has_requests(self) ||
        !is_own_private_fifo(es, pool) || !bb_unit_is_settled(target) ||
        bb_load_relaxed(&target->state) != ABT_THREAD_STATE_READY ||
        (self->pool != pool && !is_own_private_fifo(es, self->pool)))
        return yield_to_general(thread);
    /* Nobody else pops a private pool. */
    if (self->pool == pool) {
        if (list_trade(pool, target, self) != ABT_SUCCESS)
            return yield_to_general(thread);
    } else {
        if (list_remove(pool, target) != ABT_SUCCESS)
            return yield_to_general(thread);
        list_push_tail(self->pool, self);
    }
    return start_directly(es, self, target);
}

int ABT_thread_yield_to(ABT_thread thread)
{
    bb_xstream *es = bb_self_xstream_or_outside();
    bb_unit *target = bb_unit_of(thread);
    if (!target || !is_plain_ult(es->current) || !is_plain_ult(target) ||
        target == es->current)
        return yield_to_general(thread);
    return yield_to_from(es, es->current, target, thread);
}
