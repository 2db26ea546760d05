/*
 * The tool interface (ABT_tool_*, src/unit/tool.c): a registered callback
 * hears about work-unit events. Every event site costs one test of a global
 * mask when nothing is registered: BB_TOOL_EVENT is a macro so that its
 * arguments are evaluated only when the event is wanted, and the call is
 * out of line and cold.
 */
#ifndef BB_TOOL_H
#define BB_TOOL_H

#include <abt.h>
#include <stdbool.h>
#include <stdint.h>

#include "bb_atomic.h"

typedef struct bb_unit bb_unit;
typedef struct bb_pool bb_pool;

/* What ABT_tool_query_thread answers; lives on the event site's stack. */
typedef struct bb_tool_ctx {
    bb_pool *pool;        /* where the unit is, or goes */
    bb_unit *caller;      /* the unit that caused the event, or NULL */
    bb_unit *parent;      /* the unit it returns to: its scheduler, or a ULT that runs it
                             directly (the join bypass, ABT_self_schedule) */
    int sync_type;        /* ABT_sync_event_type, for YIELD and SUSPEND */
    const void *sync_obj; /* the handle of that object */
} bb_tool_ctx;

/* The registered events (ABT_TOOL_EVENT_THREAD_ALL fits in 32 bits).
 * Registration writes it atomically; event sites test it with
 * bb_tool_wants, one instruction on memory that is still an atomic read
 * (bb_bits_any). A stale read only means an event seen or missed while the
 * registration changes, which Argobots allows. */
extern __attribute__((visibility("hidden"))) uint32_t bb_tool_mask;

static inline bool bb_tool_wants(uint64_t events)
{
    return bb_bits_any(&bb_tool_mask, (uint32_t)events);
}

__attribute__((cold, noinline)) void bb_tool_fire(bb_unit *u, uint64_t event, bb_pool *pool,
                                                  bb_unit *caller, bb_unit *parent,
                                                  int sync_type, const void *sync_obj);
void bb_tool_reset(void);

/* BB_TOOL_EVENT(u, event, pool, caller, parent, sync_type, sync_obj) */
#define BB_TOOL_EVENT(u, event, ...)                                                      \
    do {                                                                                  \
        if (__builtin_expect(bb_tool_wants(event), 0))                                    \
            bb_tool_fire((u), (event), __VA_ARGS__);                                      \
    } while (0)

#endif
