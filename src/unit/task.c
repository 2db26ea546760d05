/*
 * The public tasklet API (ABT_task_*). A tasklet is a work unit without a
 * stack; most calls are the ABT_thread_* ones with ABT_ERR_INV_THREAD
 * reported as ABT_ERR_INV_TASK, as Argobots documents.
 * ABT_task_create and ABT_task_free are in hotpath.c.
 */
#include "bb_caller.h"
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_unit.h"
#include "bb_xstream.h"

static int as_task_error(int err)
{
    return err == ABT_ERR_INV_THREAD ? ABT_ERR_INV_TASK : err;
}

static int create_tasklet(bb_pool *pool, void (*func)(void *), void *arg, ABT_task *newtask)
{
    bb_unit_spec spec = {.is_ult = false, .named = newtask != NULL, .migratable = true};
    return bb_unit_create(pool, func, arg, &spec, (bb_unit **)(void *)newtask);
}

int ABT_task_create_on_xstream(ABT_xstream xstream, void (*task_func)(void *), void *arg,
                               ABT_task *newtask)
{
    if (newtask)
        *newtask = ABT_TASK_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (xstream == ABT_XSTREAM_NULL)
        return ABT_ERR_INV_XSTREAM;
    bb_sched *pinned;
    bb_pool *pool = bb_xstream_pin_first_main_pool(bb_xstream_of(xstream), &pinned);
    int err = pool ? create_tasklet(pool, task_func, arg, newtask)
                   : ABT_ERR_INV_POOL; /* its main scheduler has no pool */
    if (pinned)
        bb_sched_unpin(pinned);
    return err;
}

int ABT_task_revive(ABT_pool pool, void (*task_func)(void *), void *arg, ABT_task *task)
{
    return as_task_error(ABT_thread_revive(pool, task_func, arg, task));
}

int ABT_task_join(ABT_task task)
{
    return as_task_error(ABT_thread_join(task));
}

int ABT_task_cancel(ABT_task task)
{
    return as_task_error(ABT_thread_cancel(task));
}

static int caller_tasklet(bb_unit **self)
{
    int err = bb_caller_unit(self);
    if (err == ABT_SUCCESS && bb_unit_is_ult(*self))
        err = ABT_ERR_INV_TASK;
    return err;
}

int ABT_task_self(ABT_task *task)
{
    if (!task)
        return ABT_ERR_INV_ARG;
    *task = ABT_TASK_NULL;
    bb_unit *self;
    int err = caller_tasklet(&self);
    if (err == ABT_SUCCESS)
        *task = bb_unit_handle(self);
    return err;
}

int ABT_task_self_id(uint64_t *id)
{
    if (!id)
        return ABT_ERR_INV_ARG;
    bb_unit *self;
    int err = caller_tasklet(&self);
    if (err == ABT_SUCCESS)
        *id = bb_unit_get_id(self);
    return err;
}

int ABT_task_get_xstream(ABT_task task, ABT_xstream *xstream)
{
    return as_task_error(ABT_thread_get_last_xstream(task, xstream));
}

int ABT_task_get_state(ABT_task task, ABT_task_state *state)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (task == ABT_TASK_NULL || bb_unit_is_ult(bb_unit_of(task)))
        return ABT_ERR_INV_TASK; /* as documented: a ULT is not a tasklet */
    if (!state)
        return ABT_ERR_INV_ARG;
    switch (bb_unit_state(bb_unit_of(task))) {
    case ABT_THREAD_STATE_READY:
        *state = ABT_TASK_STATE_READY;
        break;
    case ABT_THREAD_STATE_TERMINATED:
        *state = ABT_TASK_STATE_TERMINATED;
        break;
    default:
        *state = ABT_TASK_STATE_RUNNING;
        break;
    }
    return ABT_SUCCESS;
}

int ABT_task_get_last_pool(ABT_task task, ABT_pool *pool)
{
    return as_task_error(ABT_thread_get_last_pool(task, pool));
}

int ABT_task_get_last_pool_id(ABT_task task, int *id)
{
    return as_task_error(ABT_thread_get_last_pool_id(task, id));
}

int ABT_task_set_migratable(ABT_task task, ABT_bool flag)
{
    return as_task_error(ABT_thread_set_migratable(task, flag));
}

int ABT_task_is_migratable(ABT_task task, ABT_bool *flag)
{
    return as_task_error(ABT_thread_is_migratable(task, flag));
}

int ABT_task_equal(ABT_task task1, ABT_task task2, ABT_bool *result)
{
    return ABT_thread_equal(task1, task2, result);
}

int ABT_task_get_id(ABT_task task, uint64_t *task_id)
{
    return as_task_error(ABT_thread_get_id(task, task_id));
}

int ABT_task_get_arg(ABT_task task, void **arg)
{
    return as_task_error(ABT_thread_get_arg(task, arg));
}
