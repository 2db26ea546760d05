/* A ULT stack whose guard page cannot be made (the process is at
 * vm.max_map_count, so the mprotect that would split the stack's mapping
 * fails) leaves nothing mapped behind once it is gone. The stack used to be
 * kept without a guard but still one page past its start, and only the
 * stack itself was unmapped: the page below it stayed mapped for the life of
 * the process, ABT_finalize included.
 *
 * The test takes the process to a few mappings short of the limit, creates
 * ULTs under the full technique (stacks mapped at creation, each with a
 * guard while the budget lasts) until no more stacks can be had, frees
 * them, finalizes, and checks that nothing is mapped below any of their
 * stacks. Skipped under valgrind,
 * which keeps mappings in a table of its own, and under the sanitizers,
 * whose own mappings would fail first. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bb_test.h"

enum { NUM_ULTS = 200, SPARE_MAPPINGS = 101 };

static long count_mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    long n = 0;
    for (int c; (c = fgetc(f)) != EOF;)
        n += c == '\n';
    fclose(f);
    return n;
}

static long max_map_count(void)
{
    long v = -1;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%ld", &v) != 1)
            v = -1;
        fclose(f);
    }
    return v;
}

/* Protects every other page of a fresh region until the process is an odd
 * number of mappings short of `limit`, so that the stacks' own mmaps still
 * succeed (they merge with a neighbour) while their guards' mprotect
 * fails. Returns the region, unmapped by the caller. */
static char *use_up_mappings(long limit, size_t *len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = (size_t)limit * 2 + 16;
    char *region = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(region != MAP_FAILED);
    long count = count_mappings() + 1;
    for (size_t k = 1; k + 1 < pages && count < limit - SPARE_MAPPINGS; k += 2, count += 2)
        if (mprotect(region + k * page, page, PROT_NONE) != 0)
            break;
    *len = pages * page;
    return region;
}

static void nothing(void *arg)
{
    (void)arg;
}

static int is_mapped(const void *addr)
{
    unsigned char in_core;
    return mincore((void *)addr, (size_t)sysconf(_SC_PAGESIZE), &in_core) == 0;
}

int main(void)
{
    BB_TEST_BEGIN(60);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || BB_TEST_UNDER_MSAN
    puts("skipped: the sanitizer's own mappings would fail first");
    return 77;
#endif
    if (RUNNING_ON_VALGRIND) {
        puts("skipped: valgrind keeps mappings in a table of its own");
        return 77;
    }
    long limit = max_map_count();
    if (limit < 1000 || limit > 1000000) {
        printf("skipped: vm.max_map_count is %ld\n", limit);
        return 77;
    }
    setenv("ABT_THREAD_TECHNIQUE", "full", 1);
    setenv("ABT_STACK_OVERFLOW_CHECK", "mprotect", 1);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    ABT_pool pool;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));

    size_t region_len;
    char *region = use_up_mappings(limit, &region_len);
    ABT_thread threads[NUM_ULTS];
    void *stacks[NUM_ULTS] = {NULL};
    int created = 0;
    for (int i = 0; i < NUM_ULTS; i++) {
        /* At the limit, a stack may not be had at all: ABT_ERR_MEM. */
        int err = ABT_thread_create(pool, nothing, NULL, ABT_THREAD_ATTR_NULL, &threads[i]);
        CHECK(err == ABT_SUCCESS || err == ABT_ERR_MEM);
        if (err != ABT_SUCCESS)
            continue;
        created++;
        size_t size;
        CHECK_OK(ABT_thread_get_stack(threads[i], &stacks[i], &size));
    }
    CHECK(created > SPARE_MAPPINGS / 2);
    for (int i = 0; i < NUM_ULTS; i++)
        if (stacks[i])
            CHECK_OK(ABT_thread_free(&threads[i]));
    CHECK_EQ(munmap(region, region_len), 0);
    CHECK_OK(ABT_finalize());

    long page = sysconf(_SC_PAGESIZE);
    int left = 0;
    for (int i = 0; i < NUM_ULTS; i++)
        left += stacks[i] && is_mapped((char *)stacks[i] - page);
    CHECK_EQ(left, 0);
    BB_TEST_END();
}
