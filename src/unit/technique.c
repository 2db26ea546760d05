/*
 * The threading techniques by name (bb_technique.h): which steps each one
 * takes, and how ABT_THREAD_TECHNIQUE and ABT_info_print_config call it.
 */
#include <strings.h>

#include "bb_technique.h"

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
};

uint32_t bb_technique_steps(int technique)
{
    return techniques[technique].steps;
}

const char *bb_technique_name(int technique)
{
    return techniques[technique].name;
}

int bb_technique_of_name(const char *name)
{
    for (int t = 0; t < BB_NUM_TECHNIQUES; t++)
        if (strcasecmp(name, techniques[t].name) == 0)
            return t;
    return -1;
}

void bb_technique_print(int technique, FILE *out)
{
    fprintf(out, "%s (%s)", techniques[technique].name, techniques[technique].what);
}
