/* An ES keeps at most ABT_MEM_MAX_NUM_STACKS free ULT stacks; past it, half
 * go to the shared depot, where any ES finds them again (README,
 * "Environment variables"). So a program whose ULTs are created on one ES
 * and freed on another reuses its memory: after a warm-up, rounds of that
 * map nothing more. Mutation testing (hotpath.c, cache_terminated: the
 * bound of the free shortcut) found nothing checking the bound there:
 * without it the freeing ES hoards every stack, the creating ES maps new
 * ones each round, and the program's mapped memory grows without end.
 * Eager stacks show it: the technique is full unless ABT_THREAD_TECHNIQUE
 * says otherwise (a lazy one caches descriptors instead, bounded by
 * ABT_MEM_MAX_NUM_DESCS in the same way: the heap is checked too). */
#include "bb_test.h"

#include <malloc.h>

enum { N = 256, ROUNDS = 8 };

static ABT_thread made[N];

static void empty(void *arg)
{
    (void)arg;
}

/* Runs on ES1: its creates take from ES1's cache (or the depot). */
static void creator(void *arg)
{
    ABT_pool pool = *(ABT_pool *)arg;
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pool, empty, NULL, ABT_THREAD_ATTR_NULL, &made[i]));
}

/* The program's mapped size (/proc/self/statm, first field), in bytes. */
static size_t mapped(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    return pages * (size_t)sysconf(_SC_PAGESIZE);
}

static size_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

static void one_round(ABT_pool p1)
{
    ABT_thread c;
    CHECK_OK(ABT_thread_create(p1, creator, &p1, ABT_THREAD_ATTR_NULL, &c));
    CHECK_OK(ABT_thread_free(&c));
    for (int i = 0; i < N; i++) /* on the primary ES: into its cache, and past it the depot */
        CHECK_OK(ABT_thread_free(&made[i]));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    if (BB_TEST_UNDER_ASAN || BB_TEST_UNDER_TSAN || BB_TEST_UNDER_MSAN || RUNNING_ON_VALGRIND) {
        printf("SKIP: under a sanitizer or valgrind (own mappings, shortcuts off)\n");
        return 77;
    }
    setenv("ABT_MEM_MAX_NUM_STACKS", "16", 1);
    setenv("ABT_MEM_MAX_NUM_DESCS", "16", 1);
    setenv("ABT_THREAD_TECHNIQUE", "full", 0);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    ABT_pool p1;
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &p1));
    one_round(p1); /* warm-up: the depot fills */
    one_round(p1);
    size_t before = mapped(), heap = heap_in_use();
    for (int r = 0; r < ROUNDS; r++)
        one_round(p1);
    size_t after = mapped(), heap_after = heap_in_use();
    if (heap_after > heap + 256 * 1024)
        BB_FAIL_AT("the heap grew by %zu KiB over %d rounds", (heap_after - heap) / 1024,
                   ROUNDS);
    /* A round that maps its ULTs' stacks anew adds N x 16 KiB = 4 MiB. */
    if (after > before + 1024 * 1024)
        BB_FAIL_AT("mapped memory grew by %zu KiB over %d rounds", (after - before) / 1024,
                   ROUNDS);
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
