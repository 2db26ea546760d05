/* Callee-saved registers (rbx, rbp, r12-r15) survive context switches: many
 * ULTs per ES keep a dozen live 64-bit values, distinct per ULT, across
 * ABT_thread_yield / ABT_self_suspend-resume and check them after every
 * switch. Explicit register variables pin some values into rbx and r12-r15
 * so that a lost register shows up even if the compiler spills the rest. */
#include "bb_test.h"

#define NUM_ES 2
#define PER_ES 6
#define ROUNDS 300

static int corrupt;
static int done;

static __attribute__((noinline)) uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static void body(void *arg)
{
    uint64_t seed = (uint64_t)(uintptr_t)arg * 0x9e3779b97f4a7c15ULL;
    uint64_t v0 = mix(seed + 0), v1 = mix(seed + 1), v2 = mix(seed + 2), v3 = mix(seed + 3);
    uint64_t v4 = mix(seed + 4), v5 = mix(seed + 5), v6 = mix(seed + 6), v7 = mix(seed + 7);
    uint64_t v8 = mix(seed + 8), v9 = mix(seed + 9), v10 = mix(seed + 10), v11 = mix(seed + 11);
    for (int r = 0; r < ROUNDS; r++) {
        register uint64_t rb __asm__("rbx") = v0 ^ (uint64_t)r;
        register uint64_t r12 __asm__("r12") = v1 + (uint64_t)r;
        register uint64_t r13 __asm__("r13") = v2 - (uint64_t)r;
        register uint64_t r14 __asm__("r14") = v3 * 3u + (uint64_t)r;
        register uint64_t r15 __asm__("r15") = v4 ^ ((uint64_t)r << 7);
        __asm__ volatile("" : "+r"(rb), "+r"(r12), "+r"(r13), "+r"(r14), "+r"(r15));
        ABT_thread_yield();
        __asm__ volatile("" : "+r"(rb), "+r"(r12), "+r"(r13), "+r"(r14), "+r"(r15));
        if (rb != (v0 ^ (uint64_t)r) || r12 != v1 + (uint64_t)r || r13 != v2 - (uint64_t)r ||
            r14 != v3 * 3u + (uint64_t)r || r15 != (v4 ^ ((uint64_t)r << 7)))
            __atomic_fetch_add(&corrupt, 1, __ATOMIC_RELAXED);
        /* The plain locals, advanced every round and recomputed to check. */
        v5 += 1;
        v6 ^= 1;
        v7 -= 1;
        v8 += 3;
        v9 = ~v9;
        v10 += v11 & 1;
        if (v5 != mix(seed + 5) + (uint64_t)r + 1 || v7 != mix(seed + 7) - (uint64_t)r - 1 ||
            v8 != mix(seed + 8) + 3 * ((uint64_t)r + 1) ||
            v6 != (mix(seed + 6) ^ (uint64_t)((r + 1) & 1)) ||
            v9 != (((r + 1) & 1) ? ~mix(seed + 9) : mix(seed + 9)) ||
            v10 != mix(seed + 10) + (uint64_t)(r + 1) * (v11 & 1) || v11 != mix(seed + 11))
            __atomic_fetch_add(&corrupt, 1, __ATOMIC_RELAXED);
    }
    __atomic_fetch_add(&done, 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(30);
    ABT_xstream xs[NUM_ES];
    ABT_pool pools[NUM_ES];
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&xs[0]));
    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));

    ABT_thread t[NUM_ES * PER_ES];
    for (int i = 0; i < NUM_ES * PER_ES; i++)
        CHECK_OK(ABT_thread_create(pools[i % NUM_ES], body, (void *)(uintptr_t)(i + 1),
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < NUM_ES * PER_ES; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(done, NUM_ES * PER_ES);
    CHECK_EQ(corrupt, 0);

    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&xs[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
