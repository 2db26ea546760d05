/*
 * ABT_future_*: ready once each of its compartments has been set.
 *
 * The compartments follow the header in one allocation. The unit that sets
 * the last compartment calls the callback with the array of values, before
 * anybody is woken, so a waiter always sees what the callback did.
 */
#include <stdlib.h>

#include "bb_runtime.h"
#include "bb_unit.h"
#include "bb_wait.h"

typedef struct {
    bb_spinlock lock;
    uint32_t num_set;         /* under lock */
    uint32_t calling_back;    /* setters running the callback now; under lock */
    uint32_t num_compartments;
    void (*callback)(void **values);
    bb_waitq waiters;
    void *values[];
} bb_future;

static bb_future *future_of(ABT_future handle)
{
    return (bb_future *)(void *)handle;
}

int ABT_future_create(uint32_t num_compartments, void (*cb_func)(void **arg),
                      ABT_future *newfuture)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!newfuture)
        return ABT_ERR_INV_ARG;
    bb_future *f = calloc(1, sizeof(*f) + num_compartments * sizeof(void *));
    if (!f)
        return ABT_ERR_MEM;
    f->num_compartments = num_compartments;
    f->callback = cb_func;
    *newfuture = (ABT_future)(void *)f;
    return ABT_SUCCESS;
}

int ABT_future_free(ABT_future *future)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (!future)
        return ABT_ERR_INV_ARG;
    bb_future *f = future_of(*future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    bb_spin_lock(&f->lock);
    /* A setter running the callback (which may be the caller: the callback
     * runs without the lock so that it may call into the runtime) takes
     * the lock again once it returns. */
    bool busy = !bb_waitq_is_empty(&f->waiters) || f->calling_back;
    bb_spin_unlock(&f->lock);
    if (busy)
        return ABT_ERR_FUTURE; /* freeing would strand the waiters, or the setter */
    free(f);
    *future = ABT_FUTURE_NULL;
    return ABT_SUCCESS;
}

/* Ready: every compartment set (at once, with none) and the callback has
 * returned. Under the lock. */
static bool is_full(const bb_future *f)
{
    return f->num_set == f->num_compartments && !f->calling_back;
}

int ABT_future_wait(ABT_future future)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_future *f = future_of(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    if (bb_caller_is_tasklet())
        return ABT_ERR_FUTURE;
    /* Readiness is read under the lock, so that the last setter is done with
     * the future before a waiter may return and free it. */
    bb_spin_lock(&f->lock);
    if (is_full(f)) {
        bb_spin_unlock(&f->lock);
        return ABT_SUCCESS;
    }
    bb_wait_node node = {.sync_type = ABT_SYNC_EVENT_TYPE_FUTURE, .sync_obj = f};
    bb_wait(&f->lock, &f->waiters, &node, NULL);
    return ABT_SUCCESS;
}

/* A woken waiter holds nothing of the future (which may be freed by now). */
void bb_future_abandon_waiter(void *obj, bb_wait_node *n)
{
    bb_future *f = obj;
    if (!bb_wait_node_is_queued(n))
        return;
    bb_spin_lock(&f->lock);
    (void)bb_waitq_leave(&f->waiters, n);
    bb_spin_unlock(&f->lock);
}

int ABT_future_test(ABT_future future, ABT_bool *is_ready)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_future *f = future_of(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    if (!is_ready)
        return ABT_ERR_INV_ARG;
    bb_spin_lock(&f->lock);
    *is_ready = is_full(f) ? ABT_TRUE : ABT_FALSE;
    bb_spin_unlock(&f->lock);
    return ABT_SUCCESS;
}

/* The user's callback, in a frame exceptions cannot unwind past
 * (bb_call_outermost): one that escapes it ends in std::terminate instead
 * of leaving the future for ever not ready. */
static void call_back(void *future)
{
    bb_future *f = future;
    f->callback(f->values);
}

int ABT_future_set(ABT_future future, void *value)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_future *f = future_of(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    bb_spin_lock(&f->lock);
    if (f->num_set == f->num_compartments) {
        bb_spin_unlock(&f->lock);
        return ABT_ERR_FUTURE; /* every compartment is set already */
    }
    f->values[f->num_set++] = value;
    if (f->num_set < f->num_compartments || !f->callback) {
        bb_wait_node *all = is_full(f) ? bb_waitq_claim_all(&f->waiters) : NULL;
        bb_spin_unlock(&f->lock);
        bb_wait_wake_list(all);
        return ABT_SUCCESS;
    }
    /* The last one, with a callback: it runs without the lock (it may call
     * into the runtime), while `calling_back` keeps the future not ready. */
    f->calling_back++; /* a reset and refill during the callback may start another */
    bb_spin_unlock(&f->lock);
    bb_call_outermost(call_back, f);
    bb_spin_lock(&f->lock);
    f->calling_back--;
    bb_wait_node *all = is_full(f) ? bb_waitq_claim_all(&f->waiters) : NULL;
    bb_spin_unlock(&f->lock);
    bb_wait_wake_list(all);
    return ABT_SUCCESS;
}

int ABT_future_reset(ABT_future future)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    bb_future *f = future_of(future);
    if (!f)
        return ABT_ERR_INV_FUTURE;
    bb_spin_lock(&f->lock);
    f->num_set = 0;
    bb_spin_unlock(&f->lock);
    return ABT_SUCCESS;
}
