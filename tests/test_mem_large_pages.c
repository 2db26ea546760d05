/*
 * ABT_MEM_LP_ALLOC: every value works, with guard pages and without (where
 * default-size stacks are carved from large-page slabs). Each round, on two
 * ESs, makes more ULTs than one slab holds, keeps them all alive at once
 * (each fills most of its stack with its own pattern, yields, and checks
 * the pattern: overlapping stacks would corrupt each other), then frees
 * them from the other ES than the one they ran on, and does it again so
 * that freed slab stacks are reused. ABT_info_print_config names the mode.
 */
#include <abt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_test.h"
#include "stack_pattern_util.h"

static void count_tasklet(void *arg)
{
    (void)arg;
    atomic_fetch_add(&stack_pattern_ok, 1);
}

static int config_mentions(const char *word)
{
    char text[4096] = {0};
    FILE *f = fmemopen(text, sizeof(text) - 1, "w");
    if (!f)
        return 0;
    ABT_info_print_config(f);
    fclose(f);
    const char *line = strstr(text, "ABT_MEM_LP_ALLOC");
    if (!line)
        return 0;
    const char *end = strchr(line, '\n');
    const char *hit = strstr(line, word);
    return hit && (!end || hit < end);
}

static void one_round(const char *lp, const char *guard, const char *expect, int n)
{
    setenv("ABT_MEM_LP_ALLOC", lp, 1);
    setenv("ABT_STACK_OVERFLOW_CHECK", guard, 1);
    CHECK_OK(ABT_init(0, NULL));
    if (!config_mentions(expect))
        BB_FAIL_AT("ABT_MEM_LP_ALLOC=%s: the configuration does not say \"%s\"", lp, expect);

    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread *units = calloc((size_t)n, sizeof(*units));
    for (int pass = 0; pass < 2; pass++) {
        CHECK_OK(stack_pattern_create(pool, n, units));
        CHECK_OK(ABT_thread_create(pool, stack_pattern_fill_yield_check, (void *)(uintptr_t)7,
                                   ABT_THREAD_ATTR_NULL, NULL)); /* unnamed */
        ABT_task task;
        CHECK_OK(ABT_task_create(pool, count_tasklet, NULL, &task));
        CHECK_OK(ABT_thread_free_many(n, units)); /* from the primary ES */
        CHECK_OK(ABT_task_free(&task));
        while (atomic_load(&stack_pattern_ok) + atomic_load(&stack_pattern_bad) < n + 2)
            ABT_thread_yield();
        CHECK_EQ(atomic_load(&stack_pattern_bad), 0);
        CHECK_EQ(atomic_load(&stack_pattern_ok), n + 2);
    }
    free(units);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(60);
    /* 2 MiB holds 128 stacks of 16 KiB: several slabs per round. */
    int n = BB_TEST_SIZE(1000, 300);
    static const struct {
        const char *value, *expect;
    } modes[] = {{"malloc", "malloc"},
                 {"mmap_rp", "mmap_rp"},
                 {"thp", "thp"},
                 {"mmap_hp_rp", "mmap_hp_rp"},
                 {"mmap_hp_thp", "mmap_hp_thp"},
                 {"no-such-mode", "mmap_rp"}}; /* unknown: the default */
    for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
        one_round(modes[m].value, "none", modes[m].expect, n);
        one_round(modes[m].value, "mprotect", modes[m].expect, n);
    }
    BB_TEST_END();
}
