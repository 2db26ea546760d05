/*
 * ABT_MEM_LP_ALLOC=mmap_hp_rp and mmap_hp_thp on the system as it is: with
 * 2 MiB huge pages reserved (vm.nr_hugepages), regions are mapped on them
 * until the reserve runs out, then on regular pages (mmap_hp_rp) or
 * transparent ones (mmap_hp_thp); with none reserved, every region takes
 * the fallback. ABT_info_print_config counts the regions of each kind.
 * Each round keeps more ULTs alive at once than the reserve's slabs hold
 * (each fills part of its stack with its own pattern, yields, and checks
 * it), and ABT_finalize gives every huge page back.
 *
 * .ci/run reserves a few huge pages when it may, so that both the huge
 * pages and their running out are exercised there.
 */
#include <abt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_test.h"
#include "stack_pattern_util.h"

#define FREE_PAGES "/sys/kernel/mm/hugepages/hugepages-2048kB/free_hugepages"
#define STACKS_PER_SLAB 128 /* 2 MiB of 16 KiB stacks */
#define MAX_PAGES_TO_EXHAUST 64 /* more reserved: map some, do not run out */

/* Free 2 MiB huge pages of the system; 0 if it has no such pool. */
static long free_huge_pages(void)
{
    FILE *f = fopen(FREE_PAGES, "r");
    long n = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%ld", &n) != 1)
        n = 0;
    fclose(f);
    return n;
}

/* kB of huge pages this process maps now (0 if the kernel does not say). */
static long own_huge_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "HugetlbPages: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

struct regions {
    unsigned hugetlb, thp, regular;
};

static struct regions regions_mapped(void)
{
    char text[4096] = {0};
    struct regions r = {0, 0, 0};
    FILE *f = fmemopen(text, sizeof(text) - 1, "w");
    CHECK(f != NULL);
    CHECK_OK(ABT_info_print_config(f));
    fclose(f);
    const char *at = strstr(text, "regions mapped:");
    if (!at || sscanf(at, "regions mapped: %u hugetlb, %u thp, %u regular", &r.hugetlb, &r.thp,
                      &r.regular) != 3)
        BB_FAIL_AT("ABT_info_print_config counts no regions:\n%s", text);
    return r;
}

/* `n` ULTs alive at once, each with a slab stack (no guard pages). */
static void run_live_ults(int n)
{
    ABT_pool pool = bb_test_main_pool();
    ABT_thread *units = calloc((size_t)n, sizeof(*units));
    CHECK(units != NULL);
    CHECK_OK(stack_pattern_create(pool, n, units));
    CHECK_OK(ABT_thread_free_many(n, units));
    CHECK_EQ(atomic_load(&stack_pattern_bad), 0);
    CHECK_EQ(atomic_load(&stack_pattern_ok), n);
    free(units);
}

/* Whether other tests of this run may map huge pages meanwhile (the suite
 * run with an mmap_hp_* mode): then the reserve seen before may be gone. */
static int reserve_is_shared(void)
{
    const char *inherited = getenv("ABT_MEM_LP_ALLOC");
    return inherited && strncmp(inherited, "mmap_hp", 7) == 0;
}

static void one_mode(const char *mode, int is_thp_fallback, int shared)
{
    long before = free_huge_pages();
    int exhaust = before <= MAX_PAGES_TO_EXHAUST;
    /* Slabs for more stacks than the reserve holds (when it is small),
     * else for two slabs. */
    int n = (int)((exhaust ? before + 2 : 2) * STACKS_PER_SLAB);
    setenv("ABT_MEM_LP_ALLOC", mode, 1);
    setenv("ABT_STACK_OVERFLOW_CHECK", "none", 1);
    CHECK_OK(ABT_init(0, NULL));
    run_live_ults(n);
    struct regions r = regions_mapped();
    long own_kb = own_huge_kb();
    printf("%s: %ld huge pages free, %d ULTs: regions %u hugetlb, %u thp, %u regular; "
           "%ld kB of huge pages mapped\n",
           mode, before, n, r.hugetlb, r.thp, r.regular, own_kb);
    /* The count agrees with the kernel (a region may be unmapped since). */
    CHECK(own_kb <= (long)r.hugetlb * 2048);
    CHECK_EQ(own_kb > 0, r.hugetlb > 0);
    if (before == 0)
        CHECK_EQ(r.hugetlb, 0u); /* nothing reserved: every region falls back */
    else if (!shared)
        CHECK(r.hugetlb >= 1u);
    if (before == 0 || (exhaust && !shared)) { /* the fallback was taken */
        CHECK((is_thp_fallback ? r.thp : r.regular) >= 1u);
        CHECK_EQ(is_thp_fallback ? r.regular : r.thp, 0u);
    }
    CHECK_OK(ABT_finalize());
    CHECK_EQ(own_huge_kb(), 0L); /* every huge page given back */
}

int main(void)
{
    BB_TEST_BEGIN(60);
    int shared = reserve_is_shared();
    one_mode("mmap_hp_rp", 0, shared);
    one_mode("mmap_hp_thp", 1, shared);
    BB_TEST_END();
}
