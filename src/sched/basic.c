/*
 * ABT_SCHED_BASIC: take the first ready unit from the pools, in pool order,
 * and run it. Every `event_freq` rounds, look at the ES's events and stop if
 * asked to. An idle loop backs off to sched_yield() so that an oversubscribed
 * machine (more ESs than cores) still makes progress.
 */
#include <sched.h>

#include "bb_pool.h"
#include "bb_sched.h"
#include "bb_xstream.h"

static bb_unit *pop_first(bb_sched *s, bb_pool **from)
{
    for (int i = 0; i < s->num_pools; i++) {
        bb_unit *u = bb_pool_pop(s->pools[i]);
        if (u) {
            *from = s->pools[i];
            return u;
        }
    }
    return NULL;
}

static void back_off(unsigned *idle_rounds)
{
    if (++*idle_rounds < BB_IDLE_SPINS_BEFORE_OS_YIELD)
        bb_cpu_relax();
    else
        sched_yield();
}

void bb_sched_basic_run(ABT_sched handle)
{
    bb_sched *s = bb_sched_of(handle);
    unsigned rounds = 0, idle_rounds = 0;

    for (;;) {
        bb_pool *pool;
        bb_unit *u = pop_first(s, &pool);
        if (u) {
            bb_xstream_run_unit(bb_self_xstream(), u, pool);
            idle_rounds = 0;
        } else {
            back_off(&idle_rounds);
        }
        if (++rounds >= (unsigned)s->event_freq || !u) {
            rounds = 0;
            bb_sched_check_events(s);
            if (bb_sched_has_to_stop(s))
                return;
        }
    }
}
