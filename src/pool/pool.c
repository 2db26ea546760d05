/* The public pool API over bb_pool (see bb_pool.h). */
#include <stdlib.h>

#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_xstream.h"

bool bb_pool_access_is_valid(int access)
{
    return access >= ABT_POOL_ACCESS_PRIV && access <= ABT_POOL_ACCESS_MPMC;
}

void bb_pool_retain(bb_pool *pool)
{
    bb_fetch_add_relaxed(&pool->num_scheds, 1);
}

/* A scheduler lets go of a pool; an automatic pool dies with its last user. */
void bb_pool_release(bb_pool *pool)
{
    if (bb_fetch_add_acq_rel(&pool->num_scheds, (uint32_t)-1) == 1 && pool->automatic)
        bb_pool_destroy(pool);
}

void bb_pool_destroy(bb_pool *pool)
{
    free(pool);
}

/* Common checks of the getters: initialized, a handle, somewhere to write. */
static int check_pool_query(ABT_pool pool, const void *out)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    return out ? ABT_SUCCESS : ABT_ERR_INV_ARG;
}

int ABT_pool_create_basic(ABT_pool_kind kind, ABT_pool_access access, ABT_bool automatic,
                          ABT_pool *newpool)
{
    if (!newpool)
        return ABT_ERR_INV_ARG;
    *newpool = ABT_POOL_NULL;
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!bb_pool_access_is_valid(access))
        return ABT_ERR_INV_POOL_ACCESS;
    if (kind != ABT_POOL_FIFO)
        return ABT_ERR_INV_POOL_KIND; /* FIFO_WAIT and RANDWS: schedulers issue */
    bb_pool *p;
    int err = bb_pool_create_fifo(access, automatic != ABT_FALSE, &p);
    if (err == ABT_SUCCESS)
        *newpool = bb_pool_handle(p);
    return err;
}

int ABT_pool_free(ABT_pool *pool)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!pool || *pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    bb_pool *p = bb_pool_of(*pool);
    if (bb_load_relaxed(&p->num_scheds) != 0)
        return ABT_ERR_POOL; /* still used by a scheduler */
    bb_pool_destroy(p);
    *pool = ABT_POOL_NULL;
    return ABT_SUCCESS;
}

int ABT_pool_push(ABT_pool pool, ABT_unit unit)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    bb_unit *u = (bb_unit *)(void *)unit;
    bb_pool *p = bb_pool_of(pool);
    u->pool = p;
    bb_pool_push(p, u, ABT_POOL_CONTEXT_OP_POOL_OTHER);
    return ABT_SUCCESS;
}

int ABT_pool_pop(ABT_pool pool, ABT_unit *unit)
{
    int err = check_pool_query(pool, unit);
    if (err != ABT_SUCCESS)
        return err;
    bb_unit *u = bb_pool_pop(bb_pool_of(pool));
    *unit = u ? (ABT_unit)(void *)u : ABT_UNIT_NULL;
    return ABT_SUCCESS;
}

int ABT_pool_remove(ABT_pool pool, ABT_unit unit)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (unit == ABT_UNIT_NULL)
        return ABT_ERR_INV_UNIT;
    bb_pool *p = bb_pool_of(pool);
    return p->ops->remove(p, (bb_unit *)(void *)unit);
}

int ABT_pool_get_size(ABT_pool pool, size_t *size)
{
    int err = check_pool_query(pool, size);
    if (err != ABT_SUCCESS)
        return err;
    *size = bb_pool_size(bb_pool_of(pool));
    return ABT_SUCCESS;
}

int ABT_pool_get_total_size(ABT_pool pool, size_t *size)
{
    int err = check_pool_query(pool, size);
    if (err != ABT_SUCCESS)
        return err;
    *size = bb_pool_total_size(bb_pool_of(pool));
    return ABT_SUCCESS;
}

int ABT_pool_get_access(ABT_pool pool, ABT_pool_access *access)
{
    int err = check_pool_query(pool, access);
    if (err != ABT_SUCCESS)
        return err;
    *access = (ABT_pool_access)bb_pool_of(pool)->access;
    return ABT_SUCCESS;
}

int ABT_pool_get_id(ABT_pool pool, int *id)
{
    int err = check_pool_query(pool, id);
    if (err != ABT_SUCCESS)
        return err;
    *id = (int)bb_pool_of(pool)->id;
    return ABT_SUCCESS;
}
