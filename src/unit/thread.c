/*
 * The public ULT API (ABT_thread_*). Each function checks its arguments and
 * its caller, then calls the shared work-unit code in unit.c / switch.c.
 * ABT_thread_* also accept tasklets unless stated otherwise.
 * ABT_thread_create, _create_to, _join, _free, _yield, _yield_to,
 * _join_many and _free_many are in hotpath.c.
 */
#include <stdlib.h>

#include "bb_attr.h"
#include "bb_caller.h"
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_unit.h"
#include "bb_xstream.h"

/* ---- creation ------------------------------------------------------------ */

static void spec_from_attr(ABT_thread_attr attr, bool named, bb_unit_spec *spec)
{
    spec->is_ult = true;
    spec->named = named;
    spec->defer_push = false;
    spec->migrate_cb = NULL;
    spec->migrate_cb_arg = NULL;
    if (attr == ABT_THREAD_ATTR_NULL) {
        spec->migratable = true;
        spec->user_stack = NULL;
        spec->stacksize = 0;
        return;
    }
    const bb_attr *a = bb_attr_of(attr);
    spec->migratable = a->migratable;
    spec->user_stack = a->stack;
    spec->stacksize = a->stacksize;
    spec->migrate_cb = a->migrate_cb;
    spec->migrate_cb_arg = a->migrate_cb_arg;
}

static int create_ult(bb_pool *pool, void (*func)(void *), void *arg, ABT_thread_attr attr,
                      bool defer_push, bb_unit **out);

/* ABT_thread_create when no shortcut applies (hotpath.c). */
int bb_thread_create_general(bb_pool *pool, void (*func)(void *), void *arg,
                             ABT_thread_attr attr, bb_unit **out)
{
    return create_ult(pool, func, arg, attr, false, out);
}

/* bb_unit_create writes `*out` before the push: once pushed, the ULT may run
 * on another ES, and read its handle there, before this returns. */
static int create_ult(bb_pool *pool, void (*func)(void *), void *arg, ABT_thread_attr attr,
                      bool defer_push, bb_unit **out)
{
    bb_unit_spec spec;
    spec_from_attr(attr, out != NULL, &spec);
    spec.defer_push = defer_push;
    return bb_unit_create(pool, func, arg, &spec, out);
}

int ABT_thread_create_on_xstream(ABT_xstream xstream, void (*thread_func)(void *), void *arg,
                                 ABT_thread_attr attr, ABT_thread *newthread)
{
    if (newthread)
        *newthread = ABT_THREAD_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    bb_sched *pinned;
    bb_pool *pool = bb_xstream_pin_first_main_pool(bb_xstream_of(xstream), &pinned);
    int err = pool ? create_ult(pool, thread_func, arg, attr, false, (bb_unit **)(void *)newthread)
                   : ABT_ERR_INV_POOL; /* its main scheduler has no pool */
    if (pinned)
        bb_sched_unpin(pinned);
    return err;
}

/* ABT_thread_create_to off its shortcut (hotpath.c): any attribute or pool. */
int bb_thread_create_to_general(ABT_pool pool, void (*thread_func)(void *), void *arg,
                                ABT_thread_attr attr, ABT_thread *newthread)
{
    bb_unit *self;
    int err = bb_caller_plain_ult(&self);
    if (err != ABT_SUCCESS)
        return err;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    bb_unit_spec spec;
    spec_from_attr(attr, newthread != NULL, &spec);
    spec.defer_push = true;
    bb_unit *u;
    err = bb_unit_create(bb_pool_of(pool), thread_func, arg, &spec, &u);
    if (err != ABT_SUCCESS)
        return err;
    if (newthread)
        *newthread = bb_unit_handle(u);
    bb_ult_run_child_first(self, u, ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO);
    return ABT_SUCCESS;
}

int ABT_thread_create_many(int num_threads, ABT_pool *pool_list,
                           void (**thread_func_list)(void *), void **arg_list,
                           ABT_thread_attr attr, ABT_thread *newthread_list)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (num_threads < 0 || (num_threads > 0 && (!pool_list || !thread_func_list)))
        return ABT_ERR_INV_ARG;
    if (attr != ABT_THREAD_ATTR_NULL && bb_attr_of(attr)->stack)
        return ABT_ERR_INV_THREAD_ATTR; /* ULTs cannot share one stack */
    for (int i = 0; i < num_threads; i++) {
        if (pool_list[i] == ABT_POOL_NULL)
            return ABT_ERR_INV_POOL;
        bb_unit **out = newthread_list ? (bb_unit **)(void *)&newthread_list[i] : NULL;
        int err = create_ult(bb_pool_of(pool_list[i]), thread_func_list[i],
                             arg_list ? arg_list[i] : NULL, attr, false, out);
        if (err != ABT_SUCCESS)
            return err;
    }
    return ABT_SUCCESS;
}

/* ---- revive ------------------------------------------------------------- */

int ABT_thread_revive(ABT_pool pool, void (*thread_func)(void *), void *arg,
                      ABT_thread *thread)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!thread || *thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(*thread);
    if (!bb_unit_has_ended(u))
        return ABT_ERR_INV_THREAD;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    return bb_unit_revive(bb_pool_of(pool), thread_func, arg, u, true);
}

int ABT_thread_revive_to(ABT_pool pool, void (*thread_func)(void *), void *arg,
                         ABT_thread *thread)
{
    bb_unit *self;
    int err = bb_caller_plain_ult(&self);
    if (err != ABT_SUCCESS)
        return err;
    if (!thread || *thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(*thread);
    if (!bb_unit_is_ult(u) || !bb_unit_has_ended(u))
        return ABT_ERR_INV_THREAD;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    err = bb_unit_revive(bb_pool_of(pool), thread_func, arg, u, false);
    if (err == ABT_SUCCESS)
        bb_ult_run_child_first(self, u, ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO);
    return err;
}

/* ---- exit, cancel, yield, resume ---------------------------------------- */

int ABT_thread_exit(void)
{
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err != ABT_SUCCESS)
        return err;
    if (self->flags & (BB_UNIT_PRIMARY | BB_UNIT_SCHED))
        return ABT_ERR_INV_THREAD;
    bb_ult_exit(self);
}

int ABT_thread_cancel(ABT_thread thread)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(thread);
    if (u->flags & (BB_UNIT_PRIMARY | BB_UNIT_SCHED))
        return ABT_ERR_INV_THREAD;
    bb_unit_cancel(u);
    return ABT_SUCCESS;
}

/* Take the right to end `u`'s suspension by the user; false if it is not
 * suspended or somebody else took it. A ULT that is still on its way into
 * the suspension (its state already BLOCKED, which a caller may have seen)
 * is waited for: it is running on another ES, a few instructions away. */
bool bb_unit_claim_suspension(bb_unit *u)
{
    unsigned spins = 0;
    for (;;) {
        uint8_t expected = BB_RESUMABLE;
        if (bb_cas_acq_rel(&u->resumable, &expected, (uint8_t)BB_NOT_RESUMABLE))
            return true;
        if (expected != BB_SUSPENDING)
            return false;
        bb_spin_wait_step(&spins);
    }
}

/* Only a suspended ULT may be resumed, once: one blocked in a join or a
 * synchronization object is woken by what it waits for. */
int bb_unit_resume(bb_unit *u)
{
    if (!bb_unit_claim_suspension(u))
        return ABT_ERR_THREAD;
    bb_unit_make_ready(u);
    return ABT_SUCCESS;
}

int ABT_thread_resume(ABT_thread thread)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(thread);
    if (!bb_unit_is_ult(u))
        return ABT_ERR_INV_THREAD;
    return bb_unit_resume(u);
}

/* ---- queries -------------------------------------------------------------- */

int ABT_thread_self(ABT_thread *thread)
{
    if (!thread)
        return ABT_ERR_INV_ARG;
    *thread = ABT_THREAD_NULL;
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err == ABT_SUCCESS)
        *thread = bb_unit_handle(self);
    return err;
}

int ABT_thread_self_id(ABT_unit_id *id)
{
    if (!id)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err == ABT_SUCCESS)
        *id = bb_unit_get_id(self);
    return err;
}


/* Common checks of the getters: initialized, a handle, somewhere to write. */
static int check_query(ABT_thread thread, const void *out)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    if (!out)
        return ABT_ERR_INV_ARG;
    return ABT_SUCCESS;
}

int ABT_thread_get_id(ABT_thread thread, ABT_unit_id *thread_id)
{
    int err = check_query(thread, thread_id);
    if (err == ABT_SUCCESS)
        *thread_id = bb_unit_get_id(bb_unit_of(thread));
    return err;
}

int ABT_thread_get_state(ABT_thread thread, ABT_thread_state *state)
{
    int err = check_query(thread, state);
    if (err == ABT_SUCCESS)
        *state = (ABT_thread_state)bb_unit_state(bb_unit_of(thread));
    return err;
}

int ABT_thread_get_last_xstream(ABT_thread thread, ABT_xstream *xstream)
{
    int err = check_query(thread, xstream);
    if (err == ABT_SUCCESS)
        *xstream = /* NULL if it never ran */
            bb_xstream_handle(bb_load_relaxed(&bb_unit_of(thread)->xstream));
    return err;
}

int ABT_thread_get_last_pool(ABT_thread thread, ABT_pool *pool)
{
    int err = check_query(thread, pool);
    if (err == ABT_SUCCESS)
        *pool = bb_pool_handle(bb_load_relaxed(&bb_unit_of(thread)->pool));
    return err;
}

int ABT_thread_get_last_pool_id(ABT_thread thread, int *id)
{
    int err = check_query(thread, id);
    if (err == ABT_SUCCESS) {
        bb_pool *p = bb_load_relaxed(&bb_unit_of(thread)->pool);
        *id = p ? bb_pool_id_if_live(p) : -1;
    }
    return err;
}

int ABT_thread_get_unit(ABT_thread thread, ABT_unit *unit)
{
    int err = check_query(thread, unit);
    if (err == ABT_SUCCESS)
        *unit = bb_unit_to_handle(bb_unit_of(thread));
    return err;
}

int ABT_thread_set_associated_pool(ABT_thread thread, ABT_pool pool)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    /* As in Argobots, the unit must not be waiting in a pool (popped, running
     * or blocked): a user pool would still hold the unit this gives back. */
    return bb_unit_set_pool(bb_unit_of(thread), bb_pool_of(pool));
}

int ABT_thread_get_stacksize(ABT_thread thread, size_t *stacksize)
{
    int err = check_query(thread, stacksize);
    if (err == ABT_SUCCESS)
        *stacksize = bb_unit_of(thread)->stacksize; /* a lazy stack has its size before it exists */
    return err;
}

/* Either output may be NULL, as in Argobots' own tests of this call, which
 * ask for the address and the size one at a time; not both. */
int ABT_thread_get_stack(ABT_thread thread, void **stackaddr, size_t *stacksize)
{
    int err = check_query(thread, stackaddr ? (const void *)stackaddr : stacksize);
    if (err != ABT_SUCCESS)
        return err;
    bb_unit *u = bb_unit_of(thread);
    if (stackaddr)
        *stackaddr = bb_load_relaxed(&u->stack); /* a lazy stack comes and goes */
    if (stacksize)
        *stacksize = u->stacksize;
    return ABT_SUCCESS;
}

int ABT_thread_get_arg(ABT_thread thread, void **arg)
{
    int err = check_query(thread, arg);
    if (err == ABT_SUCCESS)
        *arg = bb_load_relaxed(&bb_unit_of(thread)->arg);
    return err;
}

int ABT_thread_set_arg(ABT_thread thread, void *arg)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_store_relaxed(&bb_unit_of(thread)->arg, arg); /* others may query it */
    return ABT_SUCCESS;
}

int ABT_thread_get_thread_func(ABT_thread thread, void (**thread_func)(void *))
{
    int err = check_query(thread, thread_func);
    if (err != ABT_SUCCESS)
        return err;
    bb_unit *u = bb_unit_of(thread);
    *thread_func = (u->flags & BB_UNIT_SCHED) ? bb_sched_unit_func(u) : bb_load_relaxed(&u->func);
    return ABT_SUCCESS;
}

int ABT_thread_is_primary(ABT_thread thread, ABT_bool *is_primary)
{
    int err = check_query(thread, is_primary);
    if (err == ABT_SUCCESS)
        *is_primary = (bb_unit_of(thread)->flags & BB_UNIT_PRIMARY) ? ABT_TRUE : ABT_FALSE;
    return err;
}

/* As in Argobots, the primary ULT counts as unnamed (yet is never freed). */
bool bb_unit_is_unnamed(const bb_unit *u)
{
    return !(u->flags & BB_UNIT_NAMED) || (u->flags & BB_UNIT_PRIMARY);
}

int ABT_thread_is_unnamed(ABT_thread thread, ABT_bool *is_unnamed)
{
    int err = check_query(thread, is_unnamed);
    if (err == ABT_SUCCESS)
        *is_unnamed = bb_unit_is_unnamed(bb_unit_of(thread)) ? ABT_TRUE : ABT_FALSE;
    return err;
}

int ABT_thread_equal(ABT_thread thread1, ABT_thread thread2, ABT_bool *result)
{
    if (!result)
        return ABT_ERR_INV_ARG;
    *result = thread1 == thread2 ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

int ABT_thread_get_attr(ABT_thread thread, ABT_thread_attr *attr)
{
    int err = check_query(thread, attr);
    if (err != ABT_SUCCESS)
        return err;
    bb_unit *u = bb_unit_of(thread);
    if (!bb_unit_is_ult(u))
        return ABT_ERR_INV_THREAD;
    bb_attr *a = malloc(sizeof(*a));
    if (!a)
        return ABT_ERR_MEM;
    a->stack = bb_load_relaxed(&u->stack);
    a->stacksize = u->stacksize;
    a->migratable = bb_load_relaxed(&u->migratable) != 0;
    bb_unit_get_migrate_cb(u, &a->migrate_cb, &a->migrate_cb_arg);
    *attr = (ABT_thread_attr)(void *)a;
    return ABT_SUCCESS;
}

int ABT_thread_set_migratable(ABT_thread thread, ABT_bool migratable)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(thread);
    if (u->flags & (BB_UNIT_PRIMARY | BB_UNIT_SCHED))
        return ABT_SUCCESS; /* never migratable; Argobots ignores the request */
    bb_store_relaxed(&u->migratable, (uint8_t)(migratable != ABT_FALSE));
    return ABT_SUCCESS;
}

int ABT_thread_is_migratable(ABT_thread thread, ABT_bool *is_migratable)
{
    int err = check_query(thread, is_migratable);
    if (err == ABT_SUCCESS)
        *is_migratable =
            bb_load_relaxed(&bb_unit_of(thread)->migratable) ? ABT_TRUE : ABT_FALSE;
    return err;
}

int ABT_thread_set_callback(ABT_thread thread, void (*cb_func)(ABT_thread thread, void *cb_arg),
                            void *cb_arg)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *u = bb_unit_of(thread);
    bb_unit_set_cold(u);
    return bb_unit_set_migrate_cb(u, cb_func, cb_arg); /* the unit may be moving meanwhile */
}
