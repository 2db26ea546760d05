/*
 * Stacked schedulers: ABT_pool_add_sched puts a scheduler into a pool as a
 * ULT of its own. Whichever scheduler pops it runs its loop; the units it
 * runs return to it, and it returns to its parent (the scheduler that popped
 * it) every `event_freq` rounds (bb_sched_check_events) and for good once its
 * pools are drained or it is asked to stop.
 */
#include "bb_pool.h"
#include "bb_runtime.h"
#include "bb_sched.h"
#include "bb_xstream.h"

static void stacked_sched_main(void *arg)
{
    bb_sched *s = arg;
    bb_store_relaxed(&s->unit, bb_self_unit());
    s->run(bb_sched_handle(s));
    bb_store_relaxed(&s->unit, NULL);
    bb_store_relaxed(&s->request, 0u);
    /* Nobody else may free an automatic scheduler, unless it stopped
     * (ABT_sched_exit) with work left in an automatic pool of its own. */
    bb_sched_free_or_give_back(s);
}

/* A stacked scheduler's unit shows its run function, which it calls with
 * the scheduler's handle (its argument), as in Argobots; a main scheduler's
 * runs the runtime's own loop, and shows none. */
void (*bb_sched_unit_func(const bb_unit *u))(void *)
{
    if (bb_load_relaxed(&u->func) != stacked_sched_main)
        return NULL;
    const bb_sched *s = bb_load_relaxed(&u->arg);
    return (void (*)(void *))s->run;
}

/* Whether a scheduler's unit is a stacked scheduler's (ABT_pool_add_sched)
 * rather than an ES's main scheduler's, whatever pool it is associated with. */
bool bb_sched_unit_is_stacked(const bb_unit *u)
{
    return bb_load_relaxed(&u->func) == stacked_sched_main;
}

int ABT_pool_add_sched(ABT_pool pool, ABT_sched sched)
{
    if (!bb_is_up())
        return ABT_ERR_UNINITIALIZED;
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (sched == ABT_SCHED_NULL)
        return ABT_ERR_INV_SCHED;
    bb_sched *s = bb_sched_of(sched);
    if (!bb_sched_claim(s, BB_SCHED_IN_POOL))
        return ABT_ERR_INV_SCHED;
    bb_unit_spec spec = {.is_ult = true, .stacksize = bb_rt.config.sched_stacksize,
                         .defer_push = true};
    bb_unit *u;
    int err = bb_unit_create(bb_pool_of(pool), stacked_sched_main, s, &spec, &u);
    if (err != ABT_SUCCESS) {
        bb_sched_unclaim(s);
        return err;
    }
    u->flags = (u->flags & ~(uint32_t)BB_UNIT_PLAIN_ULT) | BB_UNIT_SCHED;
    bb_store_relaxed(&s->unit, u);
    bb_pool_push(bb_pool_of(pool), u, ABT_POOL_CONTEXT_OP_THREAD_CREATE);
    return ABT_SUCCESS;
}
