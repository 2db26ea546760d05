/*
 * ABT_self_*: operations on the calling work unit. All of them fail with
 * ABT_ERR_INV_XSTREAM from an external thread; those that switch contexts
 * fail with ABT_ERR_INV_THREAD from a tasklet.
 *
 * The *_to variants hand the ES directly to another ULT, which the caller
 * must already have taken out of its pool (or which is suspended, for the
 * resume_* ones); it runs as a child of the caller's scheduler.
 */
#include "bb_caller.h"
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_tool.h"
#include "bb_unit.h"
#include "bb_xstream.h"

int ABT_self_get_xstream(ABT_xstream *xstream)
{
    if (!xstream)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *xstream = bb_xstream_handle(bb_self_xstream());
    return err;
}

int ABT_self_get_xstream_rank(int *rank)
{
    if (!rank)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *rank = bb_load_relaxed(&bb_self_xstream()->rank);
    return err;
}

int ABT_self_get_thread(ABT_thread *thread)
{
    if (!thread)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    *thread = err == ABT_SUCCESS ? bb_unit_handle(self) : ABT_THREAD_NULL;
    return err;
}

int ABT_self_get_thread_id(ABT_unit_id *id)
{
    if (!id)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *id = bb_unit_get_id(self);
    return err;
}

int ABT_self_get_type(ABT_unit_type *type)
{
    if (!type)
        return ABT_ERR_INV_ARG;
    *type = ABT_UNIT_TYPE_EXT;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *type = bb_unit_is_ult(self) ? ABT_UNIT_TYPE_THREAD : ABT_UNIT_TYPE_TASK;
    return err;
}

int ABT_self_is_primary(ABT_bool *is_primary)
{
    if (!is_primary)
        return ABT_ERR_INV_ARG;
    *is_primary = ABT_FALSE;
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err == ABT_SUCCESS)
        *is_primary = (self->flags & BB_UNIT_PRIMARY) ? ABT_TRUE : ABT_FALSE;
    return err;
}

int ABT_self_on_primary_xstream(ABT_bool *on_primary)
{
    if (!on_primary)
        return ABT_ERR_INV_ARG;
    *on_primary = ABT_FALSE;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *on_primary = bb_self_xstream()->is_primary ? ABT_TRUE : ABT_FALSE;
    return err;
}

int ABT_self_is_unnamed(ABT_bool *is_unnamed)
{
    if (!is_unnamed)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *is_unnamed = bb_unit_is_unnamed(self) ? ABT_TRUE : ABT_FALSE;
    return err;
}

int ABT_self_get_last_pool(ABT_pool *pool)
{
    if (!pool)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *pool = bb_pool_handle(self->pool);
    return err;
}

int ABT_self_get_last_pool_id(int *pool_id)
{
    if (!pool_id)
        return ABT_ERR_INV_ARG;
    *pool_id = -1;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS && self->pool)
        *pool_id = (int)self->pool->id;
    return err;
}

int ABT_self_set_associated_pool(ABT_pool pool)
{
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err != ABT_SUCCESS)
        return err;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    return bb_unit_set_pool(self, bb_pool_of(pool));
}

int ABT_self_get_unit(ABT_unit *unit)
{
    if (!unit)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *unit = bb_unit_to_handle(self);
    return err;
}

int ABT_self_set_arg(void *arg)
{
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        bb_store_relaxed(&self->arg, arg); /* others may query it */
    return err;
}

int ABT_self_get_arg(void **arg)
{
    if (!arg)
        return ABT_ERR_INV_ARG;
    *arg = NULL;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS)
        *arg = self->arg;
    return err;
}

int ABT_self_get_thread_func(void (**thread_func)(void *))
{
    if (!thread_func)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = bb_caller_unit(&self);
    if (err == ABT_SUCCESS) /* as ABT_thread_get_thread_func */
        *thread_func = (self->flags & BB_UNIT_SCHED) ? bb_sched_unit_func(self) : self->func;
    return err;
}

/* ---- switching ------------------------------------------------------------ */

int ABT_self_yield(void)
{
    bb_unit *self;
    int err = bb_caller_switchable_ult(&self);
    if (err == ABT_SUCCESS)
        bb_ult_yield(self);
    return err;
}

int ABT_self_suspend(void)
{
    bb_unit *self;
    int err = bb_caller_switchable_ult(&self);
    if (err == ABT_SUCCESS)
        bb_ult_suspend(self);
    return err;
}

int ABT_self_exit(void)
{
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err != ABT_SUCCESS)
        return err;
    if (self->flags & (BB_UNIT_PRIMARY | BB_UNIT_SCHED))
        return ABT_ERR_INV_THREAD;
    bb_ult_exit(self);
}

/* The checks every *_to call shares: a plain ULT hands over to another,
 * non-scheduler ULT. */
static int check_handover(ABT_thread thread, bb_unit **self, bb_unit **target)
{
    int err = bb_caller_ult(self);
    if (err != ABT_SUCCESS)
        return err;
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    *target = bb_unit_of(thread);
    if (!bb_unit_is_ult(*target) || *target == *self || ((*self)->flags & BB_UNIT_SCHED) ||
        ((*target)->flags & BB_UNIT_SCHED))
        return ABT_ERR_INV_THREAD;
    return ABT_SUCCESS;
}

/* A suspended ULT given to a resume_*_to call becomes ready, but instead of
 * going through its pool it runs right away. A tool hears it resumed, as
 * from ABT_thread_resume, before the caller's handover. */
static int take_suspended(bb_unit *target)
{
    if (!bb_unit_claim_suspension(target))
        return ABT_ERR_THREAD; /* not suspended (see bb_unit_resume) */
    BB_TOOL_EVENT(target, ABT_TOOL_EVENT_THREAD_RESUME, target->pool, bb_self_unit(), NULL, 0,
                  NULL);
    bb_store_relaxed(&target->state, (uint32_t)ABT_THREAD_STATE_READY);
    bb_pool *was = target->blocked_in;
    target->blocked_in = NULL;
    if (was)
        bb_unit_uncount_blocked(was, NULL); /* it runs here at once, in no pool */
    return ABT_SUCCESS;
}

int ABT_self_yield_to(ABT_thread thread)
{
    bb_unit *self, *target;
    int err = check_handover(thread, &self, &target);
    if (err == ABT_SUCCESS)
        bb_ult_yield_to_unpooled(self, target);
    return err;
}

int ABT_self_resume_yield_to(ABT_thread thread)
{
    bb_unit *self, *target;
    int err = check_handover(thread, &self, &target);
    if (err == ABT_SUCCESS)
        err = take_suspended(target);
    if (err == ABT_SUCCESS)
        bb_ult_resume_yield_to(self, target);
    return err;
}

int ABT_self_suspend_to(ABT_thread thread)
{
    bb_unit *self, *target;
    int err = check_handover(thread, &self, &target);
    if (err == ABT_SUCCESS)
        bb_ult_suspend_to(self, target);
    return err;
}

int ABT_self_resume_suspend_to(ABT_thread thread)
{
    bb_unit *self, *target;
    int err = check_handover(thread, &self, &target);
    if (err == ABT_SUCCESS)
        err = take_suspended(target);
    if (err == ABT_SUCCESS)
        bb_ult_suspend_to(self, target);
    return err;
}

static int check_exit_to(ABT_thread thread, bb_unit **self, bb_unit **target)
{
    int err = check_handover(thread, self, target);
    if (err == ABT_SUCCESS &&
        (((*self)->flags & BB_UNIT_PRIMARY) || ((*target)->flags & BB_UNIT_PRIMARY)))
        err = ABT_ERR_INV_THREAD;
    return err;
}

int ABT_self_exit_to(ABT_thread thread)
{
    bb_unit *self, *target;
    int err = check_exit_to(thread, &self, &target);
    if (err == ABT_SUCCESS)
        bb_ult_exit_to(self, target);
    return err;
}

int ABT_self_resume_exit_to(ABT_thread thread)
{
    bb_unit *self, *target;
    int err = check_exit_to(thread, &self, &target);
    if (err == ABT_SUCCESS)
        err = take_suspended(target);
    if (err == ABT_SUCCESS)
        bb_ult_exit_to(self, target);
    return err;
}

/* Run `thread` as a child of the caller, which acts as its scheduler. A
 * stacked scheduler (ABT_pool_add_sched: its ULT has a pool) is a unit like
 * any other here; an ES's main scheduler (none) is not. */
int ABT_self_schedule(ABT_thread thread, ABT_pool pool)
{
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    bb_unit *self;
    int err = bb_caller_ult(&self);
    if (err != ABT_SUCCESS)
        return err;
    bb_unit *target = bb_unit_of(thread);
    if (target == self || ((target->flags & BB_UNIT_SCHED) && !bb_sched_unit_is_stacked(target)))
        return ABT_ERR_INV_THREAD;
    if (bb_unit_state(target) != ABT_THREAD_STATE_READY)
        return ABT_ERR_THREAD; /* running, blocked or finished: nothing to schedule */
    return bb_xstream_run_unit_from_user(bb_self_xstream(), target,
                                         pool != ABT_POOL_NULL ? bb_pool_of(pool) : target->pool);
}
