/* Memory that ULTs freed with their stack leave in the depot is there for
 * lazy ULTs too (mem.c, pop_depot_ult): under ABT_THREAD_TECHNIQUE=sc, a
 * wave of ULTs that an external thread creates (they get their stack at
 * creation) and frees, then a wave as large that a ULT creates (each is
 * lent a stack at its first run), all alive at once: the second wave maps
 * (almost) no new stacks. Before, it mapped a stack for each ULT, and the
 * first wave's memory stayed unused until ABT_finalize. Later, it still
 * mapped up to 512: the primary ES, lending one stack to its scheduler,
 * refilled its cache with half a cache's bound of the first wave's stacks,
 * which the ES that runs the second wave then lacked (refills now start
 * with a few items and grow, mem.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bb_test.h"

static ABT_pool pool;
static ABT_thread *units;
static int n;
static volatile int suspended;

/* Mappings the size of a default stack (16 KiB, guarded: the guard page is
 * a mapping of its own), readable and writable: the stacks, and not the
 * mappings of a sanitizer's shadow memory, which vary from run to run. */
static long num_stack_maps(void)
{
    long stacks = 0;
    char line[512];
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && hi - lo == 16384 &&
            strncmp(perms, "rw", 2) == 0)
            stacks++;
    }
    fclose(f);
    return stacks;
}

static void sleeper(void *arg)
{
    (void)arg;
    __atomic_add_fetch(&suspended, 1, __ATOMIC_RELAXED);
    CHECK_OK(ABT_self_suspend());
}

/* Creates a wave, waits until all are suspended, returns the number of
 * mappings then, and resumes and frees them. */
static long wave(int from_ult)
{
    __atomic_store_n(&suspended, 0, __ATOMIC_RELAXED);
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_create(pool, sleeper, NULL, ABT_THREAD_ATTR_NULL, &units[i]));
    while (__atomic_load_n(&suspended, __ATOMIC_RELAXED) < n) {
        if (from_ult)
            ABT_thread_yield();
        else
            sched_yield();
    }
    long maps = num_stack_maps();
    for (int i = 0; i < n; i++) {
        ABT_thread_state state;
        do
            CHECK_OK(ABT_thread_get_state(units[i], &state));
        while (state != ABT_THREAD_STATE_BLOCKED);
        CHECK_OK(ABT_thread_resume(units[i]));
    }
    for (int i = 0; i < n; i++)
        CHECK_OK(ABT_thread_free(&units[i]));
    return maps;
}

static long external_peak;

static void *external_wave(void *arg)
{
    (void)arg;
    external_peak = wave(0);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    setenv("ABT_THREAD_TECHNIQUE", "sc", 1);
    unsetenv("ABT_ENV_THREAD_TECHNIQUE");
    n = BB_TEST_SIZE(3000, 500);
    units = calloc((size_t)n, sizeof(*units));
    CHECK(units != NULL);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    pthread_t thread;
    CHECK_EQ(pthread_create(&thread, NULL, external_wave, NULL), 0);
    CHECK_EQ(pthread_join(thread, NULL), 0);
    long ult_peak = wave(1);
    printf("stack mappings with %d ULTs alive: %ld (external creator), %ld (a ULT)\n", n,
           external_peak, ult_peak);
    /* The primary ES's first refill (BB_REFILL_FIRST, 8) may hold a few of
     * the first wave's stacks. */
    CHECK(ult_peak <= external_peak + 16);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    free(units);
    BB_TEST_END();
}
