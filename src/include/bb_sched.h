/*
 * Schedulers: a loop, run by a ULT of its own, that pops units from its pools
 * and runs them with bb_xstream_run_unit until it is told to stop.
 *
 * Stop protocol: another party sets a request bit (FINISH: stop once every
 * pool is empty, blocked units included; EXIT: stop at the next check). The
 * loop polls the bits every `event_freq` iterations, in bb_sched_check_events,
 * and returns from its run function when bb_sched_has_to_stop says so.
 */
#ifndef BB_SCHED_H
#define BB_SCHED_H

#include <abt.h>
#include <stdbool.h>
#include <stdint.h>

#include "bb_unit.h"

enum bb_sched_requests {
    BB_SCHED_REQ_FINISH = 1u << 0, /* stop when all pools are empty */
    BB_SCHED_REQ_EXIT = 1u << 1,   /* stop as soon as possible */
    BB_SCHED_REQ_REPLACE = 1u << 2 /* stop now: a new main scheduler takes over */
};

enum bb_sched_use {
    BB_SCHED_UNUSED,
    BB_SCHED_MAIN /* main scheduler of an ES */
};

struct bb_sched {
    void (*run)(ABT_sched sched);
    int num_pools;
    bb_pool **pools;
    uint32_t request;          /* bb_sched_requests; atomic */
    int used;                  /* bb_sched_use */
    bool automatic;            /* freed with the ES that uses it */
    int event_freq;
    bb_xstream *xstream;       /* ES it is the main scheduler of */
    bb_unit *unit;             /* ULT running the loop, while in use */
};

static inline bb_sched *bb_sched_of(ABT_sched handle)
{
    return (bb_sched *)(void *)handle;
}

static inline ABT_sched bb_sched_handle(bb_sched *s)
{
    return (ABT_sched)(void *)s;
}

int bb_sched_create_predef(int predef, int num_pools, bb_pool **pools, int access,
                           bool automatic, int event_freq, bb_sched **out);
int bb_sched_create_default(bb_sched **out);
void bb_sched_destroy(bb_sched *sched);
void bb_sched_destroy_with_pools(bb_sched *sched);
void bb_sched_request(bb_sched *sched, uint32_t bits);
bool bb_sched_has_to_stop(bb_sched *sched);
size_t bb_sched_total_size(bb_sched *sched);
void bb_sched_check_events(bb_sched *sched);
void bb_sched_basic_run(ABT_sched handle);

#endif
