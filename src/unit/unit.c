/*
 * The life of a work unit, shared by ULTs and tasklets:
 * create -> (pool) -> run -> terminate -> join -> free.
 * Context switches live in switch.c; the public API in hotpath.c (create,
 * join, free, yield and their shortcuts), thread.c and task.c.
 */
#include <sched.h>
#include <string.h>

#include "bb_caller.h"
#include "bb_ctx.h"
#include "bb_key.h"
#include "bb_mem.h"
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_switch.h"
#include "bb_tool.h"
#include "bb_unit.h"
#include "bb_waiter.h"
#include "bb_xstream.h"

/* The runtime's own units (no spec) never migrate, and are never taken by
 * the free shortcut (cold_set). */
static void init_fields(bb_unit *u, bb_pool *pool, void (*func)(void *), void *arg,
                        uint32_t flags, const bb_unit_spec *spec)
{
    bb_unit_init(u, pool, func, arg, flags);
    if (spec)
        u->migratable = spec->migratable;
    u->cold_set = !spec || spec->migrate_cb; /* bb_unit_create sets the callback */
}

static bool has_default_stack(const bb_unit_spec *spec)
{
    return spec->is_ult && !spec->user_stack &&
           (spec->stacksize == 0 || spec->stacksize == bb_rt.config.thread_stacksize);
}

/* A descriptor with the memory the spec asks for: a default-size stack from
 * the ULT cache (or none yet, if lazy: bb_technique.h), a stack of another
 * size, the user's stack, or none. */
static bb_unit *alloc_unit(bb_mem_cache *cache, const bb_unit_spec *spec)
{
    bb_xstream *es = bb_self_xstream();
    bool lazy = has_default_stack(spec) && es && bb_xstream_lends_stacks(es);
    if (has_default_stack(spec) && !lazy)
        return bb_mem_ult_alloc(cache);
    bb_unit *u = bb_mem_desc_alloc(cache);
    if (!u)
        return NULL;
    u->stack = spec->user_stack;
    u->stacksize = lazy ? bb_rt.config.thread_stacksize : spec->stacksize;
    u->flags = spec->user_stack ? BB_UNIT_USER_STACK : 0;
    if (!spec->is_ult) {
        u->stacksize = 0;
    } else if (!spec->user_stack && !lazy &&
               bb_mem_stack_alloc(cache, spec->stacksize, &u->stack, &u->flags) != ABT_SUCCESS) {
        bb_mem_desc_free(cache, u);
        return NULL;
    }
    return u;
}

int bb_unit_create(bb_pool *pool, void (*func)(void *), void *arg, const bb_unit_spec *spec,
                   bb_unit **out)
{
    int err = bb_pool_check_access(pool); /* another ES's private pool */
    if (err != ABT_SUCCESS)
        return err;
    bb_mem_cache *cache = bb_self_mem_cache();
    bb_unit *u = alloc_unit(cache, spec);
    if (!u)
        return ABT_ERR_MEM;

    uint32_t flags = (u->flags & BB_UNIT_STACK_FLAGS) | (spec->named ? BB_UNIT_NAMED : 0) |
                     (spec->is_ult ? BB_UNIT_ULT | BB_UNIT_PLAIN_ULT : 0);
    init_fields(u, pool, func, arg, flags, spec);
    if (spec->migrate_cb &&
        bb_unit_set_migrate_cb(u, spec->migrate_cb, spec->migrate_cb_arg) != ABT_SUCCESS) {
        bb_unit_release_memory(u);
        return ABT_ERR_MEM;
    }
    if (pool->user) {
        err = bb_unit_attach_user_unit(u, pool); /* the user pool makes its unit */
        if (err != ABT_SUCCESS) {
            bb_unit_release_memory(u); /* never announced: no FREE event either */
            return err;
        }
    }
    if (out)
        *out = u; /* before the push: an unnamed unit may be gone right after */
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_CREATE, pool, bb_self_unit(), NULL, 0, NULL);
    if (!spec->defer_push)
        bb_pool_push(pool, u, ABT_POOL_CONTEXT_OP_THREAD_CREATE);
    return ABT_SUCCESS;
}

/* Whether `u` has terminated, for a call that needs it ended for good
 * (revive). Its state reads TERMINATED a moment before it is
 * (bb_unit_end): a caller that saw that state is right, and waits for the
 * unit to finish on another ES, a few instructions away. */
bool bb_unit_has_ended(bb_unit *u)
{
    unsigned spins = 0;
    while (!bb_unit_is_terminated(u)) {
        if (bb_unit_state(u) != ABT_THREAD_STATE_TERMINATED)
            return false;
        bb_spin_wait_step(&spins);
    }
    return true;
}

/* `u` has ended (the callers checked bb_unit_has_ended, before the pool,
 * for the order of the errors). */
int bb_unit_revive(bb_pool *pool, void (*func)(void *), void *arg, bb_unit *u, bool push)
{
    int err = bb_pool_check_access(pool);
    if (err == ABT_SUCCESS)
        err = bb_unit_set_pool(u, pool);
    if (err != ABT_SUCCESS)
        return err;
    /* Queries on the handle (ABT_thread_get_arg, _get_thread_func,
     * _get_last_xstream, ABT_info_print_thread) may read these meanwhile. */
    bb_store_relaxed(&u->func, func);
    bb_store_relaxed(&u->arg, arg);
    bb_store_relaxed(&u->requests, (uint8_t)0);
    bb_store_relaxed(&u->xstream, (bb_xstream *)NULL);
    bb_store_relaxed(&u->state, (uint32_t)ABT_THREAD_STATE_READY);
    bb_store_relaxed(&u->joiner, BB_JOIN_NOBODY);
    if (__builtin_expect(bb_fiber_tools.any, 0))
        bb_fibers_release(u); /* a fresh start for the tools too (TSan's shadow stack) */
    u->ctx = NULL; /* a ULT starts afresh on its stack (bb_switch) */
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_REVIVE, pool, bb_self_unit(), NULL, 0, NULL);
    if (push)
        bb_pool_push(pool, u, ABT_POOL_CONTEXT_OP_THREAD_REVIVE);
    return ABT_SUCCESS;
}

/* Out of line: a joiner that waits is the rare case of bb_unit_end. Each
 * link is read before its joiner is woken: it lives on that joiner's stack,
 * which the joiner may leave as soon as it runs. */
void bb_unit_wake_joiner(uintptr_t w)
{
    while ((w & BB_WAITER_TAGS) == BB_WAITER_MORE) {
        const bb_join_link *link = (const bb_join_link *)(w & ~BB_WAITER_TAGS);
        uintptr_t waiter = link->waiter;
        w = link->rest;
        bb_waiter_wake(waiter);
    }
    bb_waiter_wake(w);
}

/* Out of line, so that the common terminate needs no stack frame. */
static __attribute__((noinline)) void terminate_returning_stack(bb_unit *u)
{
    bb_ult_return_stack(u);
    bb_unit_end(u);
}

/* Runs on the context that follows the unit's last one (see switch.c). A
 * ULT that was lent a stack at its first run gives it back first. */
void bb_unit_terminate(bb_unit *u)
{
    if (u->lent_stack && !bb_ult_try_return_stack(u))
        terminate_returning_stack(u);
    else
        bb_unit_end(u);
}

__attribute__((cold)) void bb_unit_wait_until_saved_slow(bb_unit *u)
{
    unsigned spins = 0;
    while (bb_load_acquire(&u->switching))
        bb_spin_wait_step(&spins);
}

/* An external thread cannot switch: it sleeps in the kernel until woken. */
static void join_from_os_thread(bb_unit *u)
{
    bb_os_waiter *w = bb_os_waiter_arm();
    bb_join_link link;
    if (bb_unit_add_joiner(u, bb_waiter_of_os(w), &link))
        bb_os_waiter_wait(w);
}

/* Out of line: the common join finds the unit terminated already. An ES's
 * main scheduler has no parent to switch to and no pool to count itself
 * blocked in: like an external thread, it sleeps in the kernel. */
__attribute__((noinline)) void bb_unit_block_until_terminated(bb_unit *u)
{
    bb_unit *self = bb_self_unit();
    unsigned spins = 0;
    while (!bb_unit_is_terminated(u)) {
        if (!self || bb_unit_is_main_sched(self))
            join_from_os_thread(u);
        else if (bb_unit_is_ult(self)) {
            bb_ult_block_on_join(self, u);
            self->wait_target = NULL;
        }
        else
            bb_spin_wait_step(&spins); /* a tasklet cannot block: wait for another ES */
    }
}

/* A ULT first tries, once, to run the joinee itself (the join bypass,
 * hotpath.c). */
void bb_unit_wait_terminated(bb_unit *u)
{
    bb_unit *self = bb_self_unit();
    if (!(self && bb_join_bypass(self, u) && bb_unit_is_terminated(u)))
        bb_unit_block_until_terminated(u);
}

int bb_unit_join(bb_unit *u)
{
    if (!bb_unit_is_terminated(u))
        bb_unit_wait_terminated(u);
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_JOIN, NULL, bb_self_unit(), NULL, 0, NULL);
    return ABT_SUCCESS;
}


/* Join and release, with one test for both tool events. */
int bb_unit_free(bb_unit *u)
{
    if (!bb_unit_is_terminated(u))
        bb_unit_wait_terminated(u);
    if (__builtin_expect(
            bb_tool_wants(ABT_TOOL_EVENT_THREAD_JOIN | ABT_TOOL_EVENT_THREAD_FREE), 0)) {
        BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_JOIN, NULL, bb_self_unit(), NULL, 0, NULL);
        BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_FREE, NULL, bb_self_unit(), NULL, 0, NULL);
    }
    bb_unit_release_memory(u);
    return ABT_SUCCESS;
}

void bb_unit_release(bb_unit *u)
{
    BB_TOOL_EVENT(u, ABT_TOOL_EVENT_THREAD_FREE, NULL, bb_self_unit(), NULL, 0, NULL);
    bb_unit_release_memory(u);
}

void bb_unit_release_memory(bb_unit *u)
{
    if (u->keys)
        bb_unit_free_keys(u);
    if (u->migrate_cb)
        bb_unit_free_migrate_cb(u);
    if (u->unit_pool)
        bb_unit_drop_user_unit(u);
    if (u->lent_stack) /* a scheduler's, under SC (bb_technique.h) */
        bb_ult_return_stack(u);
    bb_mem_cache *cache = bb_self_mem_cache();
    if (__builtin_expect(bb_fiber_tools.any, 0))
        bb_fibers_release(u);
    bb_unit_make_free(u); /* also for debuggers walking the descriptor chunks */
    if (u->flags & BB_UNIT_CACHED_STACK) {
        bb_mem_ult_free(cache, u); /* the stack stays with the descriptor */
        return;
    }
    if (u->stack && !(u->flags & BB_UNIT_USER_STACK))
        bb_mem_stack_free(cache, u->stack, u->stacksize, u->flags);
    bb_mem_desc_free(cache, u);
}

void bb_unit_cancel(bb_unit *u)
{
    bb_fetch_or_acq_rel(&u->requests, (uint32_t)BB_REQ_CANCEL); /* in the small word */
}

uint64_t bb_unit_get_id(bb_unit *u)
{
    uint64_t id = bb_load_relaxed(&u->id);
    if (id == 0) {
        uint64_t fresh = bb_fetch_add_relaxed(&bb_rt.next_unit_id, 1) + 1;
        bb_unit_set_cold(u);
        if (bb_cas_acq_rel(&u->id, &id, fresh))
            id = fresh;
    }
    return id - 1; /* stored off by one so that zero means "not assigned" */
}

bb_unit *bb_unit_alloc_primary(void)
{
    bb_unit *u = bb_mem_desc_alloc(bb_self_mem_cache());
    if (!u)
        return NULL;
    init_fields(u, NULL, NULL, NULL,
                BB_UNIT_ULT | BB_UNIT_PLAIN_ULT | BB_UNIT_NAMED | BB_UNIT_PRIMARY, NULL);
    u->stack = NULL;
    u->stacksize = 0;
    u->state = ABT_THREAD_STATE_RUNNING;
    return u;
}

/* A unit for a scheduler loop that starts at entry(NULL) on a stack of its
 * own (its first switch starts it, as a new ULT's does, and so does every
 * switch to it while its context is NULL: bb_technique.h, SCHED_RESTART),
 * or, with no entry, for an OS thread's own context (no stack). A lazy
 * stack (`stacksize` the default ULT one) is lent at its first start. */
int bb_unit_make_sched(size_t stacksize, bool lazy_stack, void (*entry)(void *), bb_unit **out)
{
    bb_mem_cache *cache = bb_self_mem_cache();
    bb_unit *u = bb_mem_desc_alloc(cache);
    if (!u)
        return ABT_ERR_MEM;
    /* Its argument is NULL, as Argobots' main schedulers' is, and the user's
     * (ABT_self_get_arg, ABT_thread_set_arg): `entry` finds its unit without. */
    init_fields(u, NULL, entry, NULL, BB_UNIT_ULT | BB_UNIT_NAMED | BB_UNIT_SCHED, NULL);
    u->stack = NULL;
    u->stacksize = entry ? stacksize : 0;
    u->state = ABT_THREAD_STATE_RUNNING;
    if (entry && !lazy_stack) {
        uint32_t stack_flags;
        int err = bb_mem_stack_alloc(cache, stacksize, &u->stack, &stack_flags);
        if (err != ABT_SUCCESS) {
            bb_mem_desc_free(cache, u);
            return err;
        }
        u->flags |= stack_flags;
    }
    *out = u;
    return ABT_SUCCESS;
}
