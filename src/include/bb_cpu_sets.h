/*
 * The CPU sets that ABT_SET_AFFINITY gives execution streams by rank: the ES
 * of rank r is bound to set r mod num_sets. See src/xstream/cpu_sets.c for
 * the list syntax.
 */
#ifndef BB_CPU_SETS_H
#define BB_CPU_SETS_H

#include <stddef.h>

typedef struct {
    int num_sets;
    int *starts; /* num_sets + 1 offsets into cpus: set i is cpus[starts[i] .. starts[i+1]) */
    int *cpus;   /* CPU ids, each set without repeats */
} bb_cpu_sets;

/* Parse an Argobots affinity list against the process's usable CPUs (ids in
 * the list are positions in `usable`, taken modulo `num_usable`). Returns
 * ABT_SUCCESS, ABT_ERR_INV_ARG if `text` is not such a list (or expands to
 * too many CPUs), or ABT_ERR_MEM. `out` is filled only on success. */
int bb_cpu_sets_parse(const char *text, const int *usable, int num_usable, bb_cpu_sets *out);

/* One set per usable CPU, in order: the binding without a list. */
int bb_cpu_sets_one_each(const int *usable, int num_usable, bb_cpu_sets *out);

void bb_cpu_sets_free(bb_cpu_sets *sets);

/* The set for rank `rank` (>= 0); NULL if there are no sets. */
static inline const int *bb_cpu_sets_for_rank(const bb_cpu_sets *sets, int rank, int *num)
{
    if (sets->num_sets == 0) {
        *num = 0;
        return NULL;
    }
    int i = rank % sets->num_sets;
    *num = sets->starts[i + 1] - sets->starts[i];
    return sets->cpus + sets->starts[i];
}

#endif
