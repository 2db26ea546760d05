/*
 * Helpers shared by the bobbin benchmarks. Public Argobots API only, so every
 * benchmark also builds against real Argobots:
 *   cc -O2 bench/X.c $(pkg-config --cflags --libs argobots)
 *
 * Every program prints one result line of key=value pairs, e.g.
 *   fork_join kind=ult pool=priv n=256 reps=2000 ops=512000 ns_per_op=61.2
 * run.sh reads ns_per_op (or rss_mib / ns_min / ns_max); callgrind.sh reads ops.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <abt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

#define CHECK(call)                                                               \
    do {                                                                          \
        int check_ret_ = (call);                                                  \
        if (check_ret_ != ABT_SUCCESS) {                                          \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call,  \
                    check_ret_);                                                  \
            exit(1);                                                              \
        }                                                                         \
    } while (0)

/* Give the calling (primary) ES a new main scheduler, ABT_SCHED_BASIC over
 * one FIFO pool with ABT_POOL_ACCESS_PRIV, and return that pool. The main
 * ULT moves to it. */
static inline ABT_pool use_private_pool(void)
{
    ABT_xstream self;
    ABT_pool pool;
    CHECK(ABT_xstream_self(&self));
    CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pool));
    CHECK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &pool));
    return pool;
}

/* The first main pool of the calling ES, as ABT_init set it up. */
static inline ABT_pool default_pool(void)
{
    ABT_xstream self;
    ABT_pool pool;
    CHECK(ABT_xstream_self(&self));
    CHECK(ABT_xstream_get_main_pools(self, 1, &pool));
    return pool;
}

static inline void empty_body(void *arg)
{
    (void)arg;
}

#endif
