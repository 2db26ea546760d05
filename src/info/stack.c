/*
 * ABT_info_print_thread_stack and ABT_info_print_thread_stacks_in_pool.
 *
 * bobbin does not unwind stacks (ABT_INFO_QUERY_KIND_ENABLED_STACK_UNWIND is
 * false): it prints where a ULT's stack lies, where its saved context is,
 * and a hex dump of the stack's used part, as Argobots does without
 * libunwind. The dump starts at the saved stack pointer when the ULT is not
 * running (everything below it is free), else at the stack's lowest
 * address; runs of zero lines collapse into one "*". ABT_PRINT_RAW_STACK=0
 * (read at ABT_init) leaves the dump out.
 */
#include <stdint.h>
#include <stdio.h>
#include <valgrind/memcheck.h>

#include "bb_info.h"
#include "bb_pool.h"
#include "bb_print.h"
#include "bb_runtime.h"
#include "bb_sanitizer.h"

enum { LINE_BYTES = 32 };

/* Before ABT_init (printing works then too), Argobots' default: dump. */
static bool raw_dump_wanted(void)
{
    return !bb_is_up() || bb_rt.config.print_raw_stack;
}

/* Reads another ULT's stack, which the tools see as somebody else's memory:
 * AddressSanitizer its redzones, ThreadSanitizer a race with whichever
 * running unit writes a local that lives there (a pointer to a local handed
 * to another unit, as create_to and fork-join arguments are), valgrind
 * (below) its unaddressable part. The dump is a snapshot that may be torn,
 * by design, not a race or a bad read of the program's. */
__attribute__((no_sanitize_address, no_sanitize_thread)) static void
dump(FILE *fp, const char *from, const char *end, int indent)
{
    bool in_zero_run = false;
    for (const char *line = from; line + LINE_BYTES <= end; line += LINE_BYTES) {
        uint64_t w[LINE_BYTES / 8];
        /* A running ULT's stack is dumped from its lowest address, and
         * memcheck holds what lies below its stack pointer unaddressable:
         * those reads are the dump's, not errors of the program. */
        VALGRIND_DISABLE_ERROR_REPORTING;
        for (int i = 0; i < LINE_BYTES / 8; i++)
            w[i] = ((const volatile uint64_t *)(const void *)line)[i];
        VALGRIND_ENABLE_ERROR_REPORTING;
        /* Stack words may never have been written: this copy is shown as
         * it is. */
        bb_sanitizer_mark_defined(w, sizeof(w));
        bool zero = !(w[0] | w[1] | w[2] | w[3]);
        if (zero && in_zero_run)
            continue;
        if (zero && line != from) {
            bb_fprintf(fp, "%*s*\n", indent, "");
            in_zero_run = true;
            continue;
        }
        in_zero_run = false;
        bb_fprintf(fp, "%*s%p: %016llx %016llx %016llx %016llx\n", indent, "", (const void *)line,
                   (unsigned long long)w[0], (unsigned long long)w[1], (unsigned long long)w[2],
                   (unsigned long long)w[3]);
    }
}

static void print_stack(FILE *fp, bb_unit *u, int indent)
{
    if (!bb_unit_is_ult(u)) {
        bb_fprintf(fp, "%*sno stack (a tasklet)\n", indent, "");
        return;
    }
    char *stack = bb_load_relaxed(&u->stack); /* a lazy stack comes and goes */
    if (!stack && u->stacksize) { /* a lazy stack (bb_technique.h) */
        if (bb_unit_is_terminated(u))
            bb_fprintf(fp, "%*sno stack (it gave it back when it ended)\n", indent, "");
        else
            bb_fprintf(fp, "%*sno stack yet, not started: nothing on it yet (it gets its stack "
                        "at its first run)\n", indent, "");
        return;
    }
    if (!stack) {
        bb_fprintf(fp, "%*sno stack of its own (it runs on its OS thread's stack)\n", indent, "");
        return;
    }
    const char *low = stack, *high = low + u->stacksize;
    if (bb_unit_state(u) == ABT_THREAD_STATE_READY && !u->ctx) {
        bb_fprintf(fp, "%*sstack %p-%p (%zu bytes), not started: nothing on it yet\n", indent, "",
                   (const void *)low, (const void *)high, u->stacksize);
        return;
    }
    bool saved = bb_unit_state(u) != ABT_THREAD_STATE_RUNNING && u->ctx;
    const char *sp = saved ? (const char *)u->ctx : low;
    if (sp < low || sp >= high)
        sp = low; /* not a pointer into this stack: dump all of it */
    bb_fprintf(fp, "%*sstack %p-%p (%zu bytes), saved context %p\n", indent, "", (const void *)low,
               (const void *)high, u->stacksize, saved ? u->ctx : NULL);
    if (raw_dump_wanted())
        dump(fp, low + ((uintptr_t)(sp - low) & ~(uintptr_t)(LINE_BYTES - 1)), high, indent);
}

int ABT_info_print_thread_stack(FILE *fp, ABT_thread thread)
{
    if (thread == ABT_THREAD_NULL)
        return ABT_ERR_INV_THREAD;
    if (!fp)
        return ABT_ERR_INV_ARG;
    print_stack(fp, bb_unit_of(thread), 0);
    fflush(fp);
    return ABT_SUCCESS;
}

struct stacks_walk {
    FILE *fp;
};

static void print_one(void *arg, bb_unit *u)
{
    struct stacks_walk *w = arg;
    bb_info_print_unit_header(w->fp, u, 2);
    print_stack(w->fp, u, 4);
}

/* The units waiting in the pool (ready ones): running and blocked ULTs are
 * in no pool. */
int ABT_info_print_thread_stacks_in_pool(FILE *fp, ABT_pool pool)
{
    if (pool == ABT_POOL_NULL)
        return ABT_ERR_INV_POOL;
    if (!fp)
        return ABT_ERR_INV_ARG;
    bb_pool *p = bb_pool_of(pool);
    if (!bb_pool_can(p, BB_POOL_CAN_PRINT))
        return ABT_ERR_POOL;
    /* A private pool's list takes no lock: only its home ES may walk it
     * while that home runs (anyone else could follow a unit that its home
     * popped, ran and freed meanwhile), as for a push or a pop
     * (docs/REFERENCE.md, section 7). */
    if (!bb_pool_walkable_here(p))
        return ABT_ERR_INV_POOL_ACCESS;
    bb_fprintf(fp, "pool %p:\n", (void *)p);
    struct stacks_walk w = {fp};
    p->ops->for_each(p, print_one, &w);
    fflush(fp);
    return ABT_SUCCESS;
}
