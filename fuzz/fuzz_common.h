/*
 * What the seeded fuzzers fuzz_life.c and fuzz_sync.c share: the seeded
 * random numbers (splitmix64) and the record of model violations, which
 * are counted and the first 20 printed, so that a run goes on to its end
 * and still fails.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <abt.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

/* ---- random numbers ---- */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static int rnd(uint64_t *s, int n) { return (int)(mix(s) % (uint64_t)n); }

/* ---- violations ---- */
static unsigned long cur_seed;
static atomic_int violations;
#define VIOL(...)                                                                          \
    do {                                                                                   \
        if (atomic_fetch_add(&violations, 1) < 20) {                                       \
            fprintf(stderr, "VIOLATION seed=%lu %s:%d: ", cur_seed, __func__, __LINE__);   \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fprintf(stderr, "\n");                                                         \
        }                                                                                  \
    } while (0)
#define OK(call)                                                                           \
    do {                                                                                   \
        int r_ = (call);                                                                   \
        if (r_ != ABT_SUCCESS)                                                             \
            VIOL("%s returned %d", #call, r_);                                             \
    } while (0)
#define EXPECT(call, code)                                                                 \
    do {                                                                                   \
        int r_ = (call);                                                                   \
        if (r_ != (code))                                                                  \
            VIOL("%s returned %d, expected %s", #call, r_, #code);                         \
    } while (0)

#endif
