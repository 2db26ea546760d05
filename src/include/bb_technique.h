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
 *    yielded or blocked, and every joinee it ran itself returned to it)
 *    returns to it like a function, and the parent terminates it; one
 *    context switch less ("return on completion", RoC).
 *  - SCHED_RESTART: the ES's scheduler, when it starts a ULT, does not even
 *    save its own context: it moves to the ULT's stack and calls it
 *    (bb_ctx_run_on). A ULT that does not deviate returns, and the
 *    callee-saved registers are intact by the calling convention; one that
 *    deviates leaves the scheduler nothing to resume, so the scheduler is
 *    started afresh on its stack ("stack separation", SS). Only a stateless
 *    scheduler can be restarted: the ES's main scheduler when it is a
 *    predefined loop, which keeps its state in its bb_sched, not on its
 *    stack (bb_sched_is_stateless).
 *  - SCHED_STACK: the scheduler calls a ULT that has no stack yet on its
 *    own stack, as a tasklet; the ULT gets a stack only by deviating, and
 *    then it keeps the scheduler's, and the scheduler restarts on a new one
 *    ("scheduler creation", SC; with SCHED_RESTART and LAZY_STACK). The
 *    scheduler's stack is then a default-size ULT stack from the same
 *    cache, so a ULT with a larger stack size runs on its own.
 *
 * Child-first creation (ABT_thread_create_to, revive_to: the new ULT runs
 * at once and its creator waits in its pool) takes the same steps; with a
 * ULT as the parent, only RETURN (the child returns to its creator) and
 * LAZY_STACK (the child has a stack only while it runs) mean anything,
 * which gives the paper's four child-first techniques: C-Full, C-Full-E,
 * C-RoC and C-RoC-E (bb_technique_child_first_name; switch.c,
 * "child-first").
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
    BB_STEP_RETURN = 1u << 1,
    BB_STEP_SCHED_RESTART = 1u << 2,
    BB_STEP_SCHED_STACK = 1u << 3
};

/* The techniques, in the paper's names. */
enum bb_technique {
    BB_TECH_FULL,   /* eager stack, switch on both sides */
    BB_TECH_FULL_L, /* Full-L: lazy stack */
    BB_TECH_ROC,    /* RoC: return on completion */
    BB_TECH_ROC_L,  /* RoC-L: both */
    BB_TECH_SS,     /* SS: stack separation (RoC where the parent is a restartable scheduler) */
    BB_TECH_SS_L,   /* SS-L: with a lazy stack */
    BB_TECH_SC,     /* SC: scheduler creation */
    BB_TECH_AUTO,   /* sc, ss or full per ES (see below) */
    BB_NUM_TECHNIQUES
};

/* Without ABT_THREAD_TECHNIQUE, or with a name that is none of these. */
#define BB_TECH_DEFAULT BB_TECH_AUTO

/* auto: each ES starts as sc, and every BB_ADAPT_WINDOW ULTs that end on
 * it looks at them and at its pools (running averages over the windows):
 *  - the share that deviated, against the rate at which sc stops paying:
 *    above it the ES runs full, below it one of the two others again;
 *  - the share that their joiner ran itself (the join bypass: a divide and
 *    conquer whose nodes free their children), and how many units wait in
 *    its pools. sc lends such a ULT a stack when its joiner runs it and
 *    takes it back at its end; ss creates it with the stack that its
 *    descriptor kept in the ES's cache, and costs more only for the ULTs
 *    that the scheduler runs. But every ULT waiting has its stack under
 *    ss, so ss is for few waiting ULTs (a recursion: its depth), not for
 *    thousands (a loop that creates them all, then joins them newest
 *    first). Above the upper share, with few waiting, the ES runs ss;
 *    below the lower one, or with many waiting, sc again
 *    (bb_technique_adapt; README, figure 9). */
#define BB_ADAPT_WINDOW 256            /* ULTs ended between two choices (count_end) */
#define BB_ADAPT_TO_FULL_PERCENT 35    /* -> full above this share of deviations */
#define BB_ADAPT_TO_SC_PERCENT 25      /* full -> sc or ss below this one (sc stops paying at
                                          about 33%: README, figure 6) */
#define BB_ADAPT_TO_SS_PERCENT 70      /* sc -> ss above this share run by their joiner */
#define BB_ADAPT_FROM_SS_PERCENT 50    /* ss -> sc below this one (the two cost the same
                                          instructions at about 70%: ARCHITECTURE.md) */
#define BB_ADAPT_SS_MAX_WAITING 64     /* ss only while fewer units than this wait in the
                                          ES's pools on average (sc again above twice as
                                          many): each has its stack from its creation */
#define BB_ADAPT_WAITING_CAP 65536     /* the count of waiting units stops here */

uint32_t bb_technique_steps(int technique);
const char *bb_technique_name(int technique);
/* The name of the first technique with these steps (auto's are sc's). */
const char *bb_technique_name_of_steps(uint32_t steps);
/* The technique named `name` (case does not matter), or -1. */
int bb_technique_of_name(const char *name);
/* The paper's name of what ABT_thread_create_to does under `steps`. */
const char *bb_technique_child_first_name(uint32_t steps);
void bb_technique_print(int technique, FILE *out);

struct bb_xstream;
/* auto: choose the steps of `es` anew from the ULTs that ended since its
 * last choice. */
void bb_technique_adapt(struct bb_xstream *es);

#endif
