/*
 * The threading techniques by name (bb_technique.h): which steps each one
 * takes, and how ABT_THREAD_TECHNIQUE and ABT_info_print_config call it.
 */
#include <stdbool.h>
#include <strings.h>

#include "bb_pool.h"
#include "bb_print.h"
#include "bb_sched.h"
#include "bb_technique.h"
#include "bb_xstream.h"

static const struct {
    const char *name;
    uint32_t steps;
    const char *what;
} techniques[BB_NUM_TECHNIQUES] = {
    [BB_TECH_FULL] = {"full", 0, "stack from creation to free, a switch on each side"},
    [BB_TECH_FULL_L] = {"full-l", BB_STEP_LAZY_STACK,
                        "stack from first run to end, a switch on each side"},
    [BB_TECH_ROC] = {"roc", BB_STEP_RETURN,
                     "stack from creation to free, returns to its parent if it did not deviate"},
    [BB_TECH_ROC_L] = {"roc-l", BB_STEP_LAZY_STACK | BB_STEP_RETURN,
                       "stack from first run to end, returns to its parent if it did not deviate"},
    [BB_TECH_SS] = {"ss", BB_STEP_RETURN | BB_STEP_SCHED_RESTART,
                    "as roc, but the scheduler saves no context and restarts if a ULT deviates"},
    [BB_TECH_SS_L] = {"ss-l", BB_STEP_LAZY_STACK | BB_STEP_RETURN | BB_STEP_SCHED_RESTART,
                      "ss with a stack from first run to end"},
    [BB_TECH_SC] = {"sc",
                    BB_STEP_LAZY_STACK | BB_STEP_RETURN | BB_STEP_SCHED_RESTART |
                        BB_STEP_SCHED_STACK,
                    "runs on the scheduler's stack; a ULT that deviates keeps it and the "
                    "scheduler restarts on a new one"},
    [BB_TECH_AUTO] = {"auto",
                      BB_STEP_LAZY_STACK | BB_STEP_RETURN | BB_STEP_SCHED_RESTART |
                          BB_STEP_SCHED_STACK,
                      "sc, ss or full per ES, by the ULTs that deviate, that their joiner "
                      "runs, and that wait"},
};

uint32_t bb_technique_steps(int technique)
{
    return techniques[technique].steps;
}

const char *bb_technique_name(int technique)
{
    return techniques[technique].name;
}

const char *bb_technique_name_of_steps(uint32_t steps)
{
    for (int t = 0; t < BB_NUM_TECHNIQUES; t++)
        if (techniques[t].steps == steps)
            return techniques[t].name;
    return "?";
}

int bb_technique_of_name(const char *name)
{
    for (int t = 0; t < BB_NUM_TECHNIQUES; t++)
        if (strcasecmp(name, techniques[t].name) == 0)
            return t;
    return -1;
}

/* Child-first creation (ABT_thread_create_to) runs its ULT under the same
 * steps; of them only RETURN and LAZY_STACK apply to a child, whose parent
 * is a ULT: the paper's four child-first techniques. */
const char *bb_technique_child_first_name(uint32_t steps)
{
    bool returns = (steps & BB_STEP_RETURN) != 0, lazy = (steps & BB_STEP_LAZY_STACK) != 0;
    return returns ? (lazy ? "c-roc-e" : "c-roc") : (lazy ? "c-full-e" : "c-full");
}

void bb_technique_print(int technique, FILE *out)
{
    uint32_t steps = techniques[technique].steps;
    bb_fprintf(out, "%s (%s); ABT_thread_create_to: %s", techniques[technique].name,
               techniques[technique].what, bb_technique_child_first_name(steps));
    if (technique == BB_TECH_AUTO)
        bb_fprintf(out, ", %s or %s", bb_technique_child_first_name(bb_technique_steps(BB_TECH_SS)),
                   bb_technique_child_first_name(bb_technique_steps(BB_TECH_FULL)));
}

/* A running average of percentages: each window weighs a sixteenth, so
 * that the average spans some 4,000 ULTs, more than a burst of yielders
 * that end together after their siblings (a fork-join of 4,096 with D =
 * 25% ends 3,072 without a deviation, then 1,024 with one). */
static uint32_t fold_percent(uint32_t average, uint64_t part, uint64_t whole)
{
    uint64_t percent = part < whole ? part * 100 / whole : 100;
    return (15 * average + (uint32_t)percent) / 16;
}

/* Whether `value` calls for a choice: above `to`, or, if the choice is in
 * force already, not below `back` (hysteresis, so that a value near one
 * threshold does not flip the ES at every window). */
static bool keeps_above(uint32_t value, bool in_force, uint32_t to, uint32_t back)
{
    return value > to || (in_force && value >= back);
}

/* The units waiting in the pools of the main scheduler of `es` (a glimpse:
 * other ESs may push meanwhile), capped; the cap if one is a user pool,
 * whose size is the user's code to call. */
static uint32_t waiting_units(const bb_xstream *es)
{
    const bb_sched *s = es->main_sched;
    uint64_t n = 0;
    for (int i = 0; s && i < s->num_pools && n < BB_ADAPT_WAITING_CAP; i++) {
        const bb_pool *p = s->pools[i];
        n += p->user ? BB_ADAPT_WAITING_CAP : bb_load_relaxed(&p->size);
    }
    return n < BB_ADAPT_WAITING_CAP ? (uint32_t)n : BB_ADAPT_WAITING_CAP;
}

void bb_technique_adapt(bb_xstream *es)
{
    uint64_t ended = es->ults_ended - es->adapt_ended;
    uint64_t deviated = es->ults_deviated - es->adapt_deviated;
    uint64_t joiner_run = es->ults_joiner_run - es->adapt_joiner_run;
    if (ended == 0)
        return;
    es->adapt_ended = es->ults_ended;
    es->adapt_deviated = es->ults_deviated;
    es->adapt_joiner_run = es->ults_joiner_run;
    /* A ULT counts when it ends, and one that deviated tends to end later
     * than its siblings (a yield sends it behind them): a window alone may
     * see none of a burst's deviations. A running average over the windows
     * smooths that out. A ULT that its joiner runs counts when the joiner
     * takes it, and ends soon after, unless it deviates. */
    es->deviation_percent = fold_percent(es->deviation_percent, deviated, ended);
    es->joiner_run_percent = fold_percent(es->joiner_run_percent, joiner_run, ended);
    es->waiting_average = (15 * es->waiting_average + waiting_units(es)) / 16;
    uint32_t sc = bb_technique_steps(BB_TECH_SC), ss = bb_technique_steps(BB_TECH_SS),
             full = bb_technique_steps(BB_TECH_FULL), steps = sc;
    /* The waiting test below is keeps_above of "too many wait", a choice in
     * force while the ES is not ss, negated: ss is entered below
     * BB_ADAPT_SS_MAX_WAITING waiting units and left above twice that. */
    if (keeps_above(es->deviation_percent, es->ult_steps == full, BB_ADAPT_TO_FULL_PERCENT,
                    BB_ADAPT_TO_SC_PERCENT))
        steps = full;
    else if (keeps_above(es->joiner_run_percent, es->ult_steps == ss, BB_ADAPT_TO_SS_PERCENT,
                         BB_ADAPT_FROM_SS_PERCENT) &&
             !keeps_above(es->waiting_average, es->ult_steps != ss, 2 * BB_ADAPT_SS_MAX_WAITING,
                          BB_ADAPT_SS_MAX_WAITING))
        steps = ss;
    /* Stored atomically: ABT_info_print_xstream may look from elsewhere. */
    if (steps != es->ult_steps)
        bb_store_relaxed(&es->ult_steps, steps);
}
