/*
 * ABT_tool_register_thread_callback and ABT_tool_query_thread.
 *
 * A registration (callback, mask, argument) is an immutable record; a new
 * one replaces the current pointer, so an event always sees a consistent
 * triple, and `bb_tool_mask` mirrors its mask for the event sites' one-test
 * check. An event that began before a registration returned may still call
 * the previous callback (as in Argobots); replaced records are kept until
 * ABT_finalize for that reason.
 */
#include <stdlib.h>

#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_tool.h"
#include "bb_unit.h"
#include "bb_xstream.h"

typedef struct registration {
    struct registration *older;
    ABT_tool_thread_callback_fn cb;
    uint64_t mask;
    void *arg;
} registration;

uint32_t bb_tool_mask;
_Static_assert(ABT_TOOL_EVENT_THREAD_ALL <= UINT32_MAX, "the tool mask has 32 bits");
static registration *current; /* atomic */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void bb_tool_fire(bb_unit *u, uint64_t event, bb_pool *pool, bb_unit *caller, bb_unit *parent,
                  int sync_type, const void *sync_obj)
{
    registration *r = bb_load_acquire(&current);
    if (!r || !(r->mask & event) || !r->cb)
        return;
    bb_tool_ctx ctx = {pool, caller, parent, sync_type, sync_obj};
    bb_xstream *es = bb_self_xstream();
    r->cb(bb_unit_handle(u), es ? bb_xstream_handle(es) : ABT_XSTREAM_NULL, event,
          (ABT_tool_context)(void *)&ctx, r->arg);
}

/* ABT_finalize: a new ABT_init starts with nothing registered. */
void bb_tool_reset(void)
{
    pthread_mutex_lock(&lock);
    bb_store_relaxed(&bb_tool_mask, 0u);
    bb_shortcuts_update();
    registration *r = current;
    bb_store_release(&current, (registration *)NULL);
    while (r) {
        registration *older = r->older;
        free(r);
        r = older;
    }
    pthread_mutex_unlock(&lock);
}

int ABT_tool_register_thread_callback(ABT_tool_thread_callback_fn cb_func, uint64_t event_mask,
                                      void *user_arg)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    registration *r = malloc(sizeof(*r));
    if (!r)
        return ABT_ERR_MEM;
    r->cb = cb_func;
    r->mask = cb_func ? event_mask & ABT_TOOL_EVENT_THREAD_ALL : ABT_TOOL_EVENT_THREAD_NONE;
    r->arg = user_arg;
    pthread_mutex_lock(&lock);
    r->older = current;
    bb_store_release(&current, r);
    bb_store_relaxed(&bb_tool_mask, (uint32_t)r->mask);
    bb_shortcuts_update();
    pthread_mutex_unlock(&lock);
    return ABT_SUCCESS;
}

/* How many units deep the unit runs: 1 on a main scheduler (which has no
 * parent). Every parent counts, as in Argobots, not only schedulers: a unit
 * that a plain ULT runs (ABT_self_schedule, the join bypass) runs under that
 * ULT and its scheduler, 2 deep; counting schedulers only gave 0 there. */
static int stack_depth(const bb_unit *parent)
{
    int depth = 0;
    for (const bb_unit *p = parent; p && depth < 64; p = p->parent)
        depth++;
    return depth;
}

int ABT_tool_query_thread(ABT_tool_context context, uint64_t event, ABT_tool_query_kind query_kind,
                          void *val)
{
    (void)event; /* the context has all the answers, as in Argobots */
    const bb_tool_ctx *ctx = (const bb_tool_ctx *)(void *)context;
    if (!ctx)
        return ABT_ERR_INV_TOOL_CONTEXT;
    if (!val)
        return ABT_ERR_INV_ARG;
    switch ((int)query_kind) {
    case ABT_TOOL_QUERY_KIND_POOL:
        *(ABT_pool *)val = ctx->pool ? bb_pool_handle(ctx->pool) : ABT_POOL_NULL;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_STACK_DEPTH:
        *(int *)val = stack_depth(ctx->parent);
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_CALLER_TYPE:
        *(ABT_exec_entity_type *)val =
            ctx->caller ? ABT_EXEC_ENTITY_TYPE_THREAD : ABT_EXEC_ENTITY_TYPE_EXT;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_CALLER_HANDLE:
        *(ABT_thread *)val = ctx->caller ? bb_unit_handle(ctx->caller) : ABT_THREAD_NULL;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_SYNC_OBJECT_TYPE:
        *(ABT_sync_event_type *)val = (ABT_sync_event_type)ctx->sync_type;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_SYNC_OBJECT_HANDLE:
        *(const void **)val = ctx->sync_obj;
        return ABT_SUCCESS;
    default:
        return ABT_ERR_OTHER; /* as Argobots */
    }
}
