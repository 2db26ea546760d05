/*
 * The benchmark helpers that need no Argobots: the clock and the command-line
 * numbers. bench_util.h includes this; pthreads.c, which does not link
 * Argobots, includes it alone.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Positional argument i as a positive number, or def when absent. */
static inline long arg_long(int argc, char **argv, int i, long def)
{
    if (i >= argc)
        return def;
    char *end;
    long v = strtol(argv[i], &end, 10);
    if (*end || v <= 0) {
        fprintf(stderr, "argument %d: expected a positive integer, got '%s'\n", i, argv[i]);
        exit(2);
    }
    return v;
}

static inline double arg_double(int argc, char **argv, int i, double def)
{
    if (i >= argc)
        return def;
    char *end;
    double v = strtod(argv[i], &end);
    if (*end || v < 0) {
        fprintf(stderr, "argument %d: expected a non-negative number, got '%s'\n", i, argv[i]);
        exit(2);
    }
    return v;
}

#endif
