/* ABT_thread_attr_*: a small value object copied into each ULT at creation. */
#include <stdint.h>
#include <stdlib.h>

#include "bb_attr.h"
#include "bb_config.h"
#include "bb_runtime.h"

int ABT_thread_attr_create(ABT_thread_attr *newattr)
{
    if (!newattr)
        return ABT_ERR_INV_ARG;
    *newattr = ABT_THREAD_ATTR_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_attr *a = malloc(sizeof(*a));
    if (!a)
        return ABT_ERR_MEM;
    a->stack = NULL;
    a->stacksize = bb_rt.config.thread_stacksize;
    a->migratable = true;
    a->migrate_cb = NULL;
    a->migrate_cb_arg = NULL;
    *newattr = (ABT_thread_attr)(void *)a;
    return ABT_SUCCESS;
}

int ABT_thread_attr_free(ABT_thread_attr *attr)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!attr || *attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    free(bb_attr_of(*attr));
    *attr = ABT_THREAD_ATTR_NULL;
    return ABT_SUCCESS;
}

int ABT_thread_attr_set_stack(ABT_thread_attr attr, void *stackaddr, size_t stacksize)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    if (((uintptr_t)stackaddr & 7) != 0 || stacksize < BB_MIN_STACKSIZE)
        return ABT_ERR_INV_ARG;
    bb_attr *a = bb_attr_of(attr);
    a->stack = stackaddr;
    a->stacksize = stacksize;
    return ABT_SUCCESS;
}

int ABT_thread_attr_get_stack(ABT_thread_attr attr, void **stackaddr, size_t *stacksize)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    if (!stackaddr || !stacksize)
        return ABT_ERR_INV_ARG;
    *stackaddr = bb_attr_of(attr)->stack;
    *stacksize = bb_attr_of(attr)->stacksize;
    return ABT_SUCCESS;
}

int ABT_thread_attr_set_stacksize(ABT_thread_attr attr, size_t stacksize)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    if (stacksize < BB_MIN_STACKSIZE)
        return ABT_ERR_INV_ARG;
    bb_attr_of(attr)->stacksize = stacksize;
    return ABT_SUCCESS;
}

int ABT_thread_attr_get_stacksize(ABT_thread_attr attr, size_t *stacksize)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    if (!stacksize)
        return ABT_ERR_INV_ARG;
    *stacksize = bb_attr_of(attr)->stacksize;
    return ABT_SUCCESS;
}

int ABT_thread_attr_set_callback(ABT_thread_attr attr,
                                 void (*cb_func)(ABT_thread thread, void *cb_arg), void *cb_arg)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    bb_attr_of(attr)->migrate_cb = cb_func;
    bb_attr_of(attr)->migrate_cb_arg = cb_arg;
    return ABT_SUCCESS;
}

int ABT_thread_attr_set_migratable(ABT_thread_attr attr, ABT_bool is_migratable)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (attr == ABT_THREAD_ATTR_NULL)
        return ABT_ERR_INV_THREAD_ATTR;
    bb_attr_of(attr)->migratable = is_migratable != ABT_FALSE;
    return ABT_SUCCESS;
}
