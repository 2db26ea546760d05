/* printf-family formatting of doubles and long doubles inside ULTs on
 * several ESs, before and after yields and on first entry: vfprintf uses
 * aligned SSE spills, so a ULT stack that is not 16-byte aligned at calls
 * crashes or corrupts the output here. Tasklets are checked too. */
#include "bb_test.h"

#define NUM_ES 3
#define PER_ES 8

static char expected[4][256];
static int mismatches;
static int done;

static void format(char *buf, size_t n, int k)
{
    double d = 3.14159265358979 * (k + 1);
    long double ld = (long double)d / 7.0L;
    snprintf(buf, n, "%.6f|%e|%g|%.10Lf|%a|%d", d, d * 1e10, d / 3.0, ld, d, k);
}

static void body(void *arg)
{
    int k = (int)(intptr_t)arg;
    char got[256];
    /* Compared with the reference text made on the main thread's stack. */
    for (int round = 0; round < 4; round++) {
        format(got, sizeof(got), k);
        if (strcmp(got, expected[k]) != 0)
            __atomic_fetch_add(&mismatches, 1, __ATOMIC_RELAXED);
        ABT_thread_yield();
    }
    if (k == 0 || k == 1) {
        printf("ULT %d: %.3f %.3Lf\n", k, 2.5 * k, (long double)k / 4.0L);
    }
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
}

static void task_body(void *arg)
{
    int k = (int)(intptr_t)arg;
    char got[256];
    format(got, sizeof(got), k);
    if (strcmp(got, expected[k]) != 0)
        __atomic_fetch_add(&mismatches, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    for (int k = 0; k < 4; k++)
        format(expected[k], sizeof(expected[k]), k);
    ABT_xstream xs[NUM_ES];
    ABT_pool pools[NUM_ES];
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&xs[0]));
    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));

    ABT_thread t[NUM_ES * PER_ES];
    ABT_task tk[NUM_ES];
    for (int i = 0; i < NUM_ES * PER_ES; i++)
        CHECK_OK(ABT_thread_create(pools[i % NUM_ES], body, (void *)(intptr_t)(i % 4),
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_task_create(pools[i], task_body, (void *)(intptr_t)i, &tk[i]));
    for (int i = 0; i < NUM_ES * PER_ES; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_task_free(&tk[i]));
    CHECK_EQ(done, NUM_ES * PER_ES + NUM_ES);
    CHECK_EQ(mismatches, 0);

    /* The primary ULT, after all that switching, still formats correctly. */
    char again[256];
    format(again, sizeof(again), 3);
    CHECK(strcmp(again, expected[3]) == 0);

    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&xs[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
