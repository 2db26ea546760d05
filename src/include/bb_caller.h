/*
 * Who is calling: an external thread (no ES), a tasklet, or a ULT. Public
 * calls that need a particular kind of caller check it here and return the
 * documented code: ABT_ERR_INV_XSTREAM for an external thread,
 * ABT_ERR_INV_THREAD for a tasklet where a ULT is needed.
 */
#ifndef BB_CALLER_H
#define BB_CALLER_H

#include "bb_runtime.h"
#include "bb_unit.h"
#include "bb_xstream.h"

/* Any work unit (ULT or tasklet) running on an ES. An ES exists only while
 * the runtime is up, so the initialization check is needed only without. */
static inline int bb_caller_unit(bb_unit **self)
{
    bb_xstream *es = bb_self_xstream();
    if (__builtin_expect(!es, 0))
        return bb_is_up() ? ABT_ERR_INV_XSTREAM : ABT_ERR_UNINITIALIZED;
    *self = es->current;
    return ABT_SUCCESS;
}

/* A ULT running on an ES. */
static inline int bb_caller_ult(bb_unit **self)
{
    int err = bb_caller_unit(self);
    if (err == ABT_SUCCESS && !bb_unit_is_ult(*self))
        err = ABT_ERR_INV_THREAD;
    return err;
}

/* An ES's main scheduler runs on no parent: it has nowhere to switch to. */
static inline bool bb_unit_is_main_sched(const bb_unit *u)
{
    return (u->flags & BB_UNIT_SCHED) && !u->parent;
}

/* A ULT that may yield or suspend: not a main scheduler. */
static inline int bb_caller_switchable_ult(bb_unit **self)
{
    int err = bb_caller_ult(self);
    if (err == ABT_SUCCESS && bb_unit_is_main_sched(*self))
        err = ABT_ERR_INV_THREAD;
    return err;
}

/* A ULT that is not a scheduler: the only kind that may hand its ES over to
 * another ULT directly (yield_to, create_to, exit_to, ...). */
static inline int bb_caller_plain_ult(bb_unit **self)
{
    int err = bb_caller_ult(self);
    if (err == ABT_SUCCESS && ((*self)->flags & BB_UNIT_SCHED))
        err = ABT_ERR_INV_THREAD;
    return err;
}

#endif
