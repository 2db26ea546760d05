/*
 * How a ULT is started and finished: the threading techniques of Iwasaki et
 * al. ("Analyzing the Performance Trade-Off in Implementing User-Level
 * Threads"), chosen by ABT_THREAD_TECHNIQUE at ABT_init (README.md).
 *
 * A technique is a set of small steps, each of which changes one thing
 * about the eager, fully fledged ULT ("full": a stack from creation to
 * free, a saved context on each side of every switch):
 *
 *  - LAZY_STACK: a ULT gets its stack when it first runs and gives it back
 *    when it ends, not when it is freed, so that ULTs that run one after the
 *    other reuse one stack (the paper's "-L" techniques).
 *  - RETURN: the parent that starts a ULT saves its own context, but a ULT
 *    that ends without having left its stack (no deviation: it never
 *    yielded, blocked or joined a ULT it ran itself) returns to it like a
 *    function, and the parent terminates it; one context switch less
 *    ("return on completion", RoC).
 *
 * Steps apply per ES (bb_xstream.ult_steps), decided by the ES that runs or
 * creates the ULT, and a ULT carries what they did to it (its stack, how it
 * was started), so ULTs made under one technique run under another. Where a
 * step's condition does not hold it is skipped, never assumed: a ULT with a
 * stack size of its own or the user's stack has its stack from creation; a
 * ULT that a sibling starts by switching to it (a direct yield, yield_to, a
 * join_many chain) finishes by a switch; and with a tool watching switches
 * (sanitizers, valgrind's memory tools, tool callbacks) no ULT returns,
 * because the tools must see every change of stack.
 *
 * The code: steps are applied in src/unit/switch.c ("starting and
 * finishing a ULT") and at creation (src/unit/hotpath.c, unit.c);
 * src/unit/technique.c names the techniques.
 */
#ifndef BB_TECHNIQUE_H
#define BB_TECHNIQUE_H

#include <stdint.h>
#include <stdio.h>

enum bb_ult_step {
    BB_STEP_LAZY_STACK = 1u << 0,
    BB_STEP_RETURN = 1u << 1
};

/* The techniques, in the paper's names. */
enum bb_technique {
    BB_TECH_FULL,   /* eager stack, switch on both sides */
    BB_TECH_FULL_L, /* Full-L: lazy stack */
    BB_TECH_ROC,    /* RoC: return on completion */
    BB_TECH_ROC_L,  /* RoC-L: both */
    BB_NUM_TECHNIQUES
};

uint32_t bb_technique_steps(int technique);
const char *bb_technique_name(int technique);
/* The technique named `name` (case does not matter), or -1. */
int bb_technique_of_name(const char *name);
void bb_technique_print(int technique, FILE *out);

#endif
