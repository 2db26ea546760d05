/* The CPUs this process may run on, for the binding tests. */
#ifndef CPU_UTIL_H
#define CPU_UTIL_H

#include <sched.h>

#include "bb_test.h"

/* Reads the process's CPU mask into `mask` and its CPUs, in order, into
 * `cpus` (CPU_SETSIZE entries); returns how many there are (at least 1). */
static inline int read_process_cpus(cpu_set_t *mask, int *cpus)
{
    int n = 0;
    CPU_ZERO(mask);
    CHECK_EQ(sched_getaffinity(0, sizeof(*mask), mask), 0);
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, mask))
            cpus[n++] = c;
    CHECK(n >= 1);
    return n;
}

#endif
