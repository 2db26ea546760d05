/*
 * ABT_mutex_attr_*: the attributes a mutex is created with. The only one is
 * whether the mutex is recursive; a mutex copies it at creation.
 */
#include <stdlib.h>

#include "bb_mutex.h"
#include "bb_runtime.h"

typedef struct {
    bool recursive;
} bb_mutex_attr;

static bb_mutex_attr *attr_of(ABT_mutex_attr handle)
{
    return (bb_mutex_attr *)(void *)handle;
}

static int new_attr(bool recursive, ABT_mutex_attr *out)
{
    bb_mutex_attr *a = malloc(sizeof(*a));
    if (!a)
        return ABT_ERR_MEM;
    a->recursive = recursive;
    *out = (ABT_mutex_attr)(void *)a;
    return ABT_SUCCESS;
}

int ABT_mutex_attr_create(ABT_mutex_attr *newattr)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!newattr)
        return ABT_ERR_INV_ARG;
    return new_attr(false, newattr);
}

int ABT_mutex_attr_free(ABT_mutex_attr *attr)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!attr)
        return ABT_ERR_INV_ARG;
    if (!attr_of(*attr))
        return ABT_ERR_INV_MUTEX_ATTR;
    free(attr_of(*attr));
    *attr = ABT_MUTEX_ATTR_NULL;
    return ABT_SUCCESS;
}

int ABT_mutex_attr_set_recursive(ABT_mutex_attr attr, ABT_bool recursive)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!attr_of(attr))
        return ABT_ERR_INV_MUTEX_ATTR;
    attr_of(attr)->recursive = recursive == ABT_TRUE;
    return ABT_SUCCESS;
}

int ABT_mutex_attr_get_recursive(ABT_mutex_attr attr, ABT_bool *recursive)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!attr_of(attr))
        return ABT_ERR_INV_MUTEX_ATTR;
    if (!recursive)
        return ABT_ERR_INV_ARG;
    *recursive = attr_of(attr)->recursive ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}

/* ABT_MUTEX_ATTR_NULL means the defaults, as in Argobots 1.1 and later. The
 * attribute is read only once the runtime is known to be up: before
 * ABT_init (or after ABT_finalize) no attribute can be alive. */
int ABT_mutex_create_with_attr(ABT_mutex_attr attr, ABT_mutex *newmutex)
{
    return bb_mutex_create(bb_is_up() && attr_of(attr) && attr_of(attr)->recursive, newmutex);
}

/* A new attribute object, which the caller frees. */
int ABT_mutex_get_attr(ABT_mutex mutex, ABT_mutex_attr *attr)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!bb_mutex_of(mutex))
        return ABT_ERR_INV_MUTEX;
    if (!attr)
        return ABT_ERR_INV_ARG;
    return new_attr(bb_mutex_is_recursive(bb_mutex_of(mutex)), attr);
}
