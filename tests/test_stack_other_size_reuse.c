/* A ULT created with a stack size of its own (not ABT_THREAD_STACKSIZE)
 * leaves its stack to its ES when it is freed, for the next ULT of that size,
 * instead of unmapping it (src/mem/mem.c, "stacks of other sizes"):
 *  - for each of four sizes, a freed ULT's stack stays mapped, and the next
 *    ULT of that size gets the same stack, whose whole size is usable;
 *  - a fifth size, while the four keep a free stack each, is unmapped;
 *  - a size keeps at most 64 MiB of free stacks: of three freed 24 MiB
 *    stacks, two stay mapped.
 * "Mapped": inside a mapping that /proc/self/maps lists. Everything runs
 * on the primary ES, whose cache the main ULT's creates and frees use. */
#include <stdint.h>

#include "bb_test.h"

#define NUM_SIZES 4
#define BIG_SIZE ((size_t)24 << 20) /* 64 MiB holds two */

struct probe {
    size_t size;
    size_t seen_size;
    int ok;
};

/* Uses the stack down to near its bottom (at most 256 KiB of it, to stay
 * quick), so that a stack too small for its size would fault. */
static void body(void *arg)
{
    struct probe *p = arg;
    size_t n = p->size / 2 < (256u << 10) ? p->size / 2 : (256u << 10);
    volatile char *buf = __builtin_alloca(n);
    for (size_t i = 0; i < n; i += 512)
        buf[i] = (char)i;
    ABT_thread self;
    p->ok = ABT_self_get_thread(&self) == ABT_SUCCESS &&
            ABT_thread_get_stacksize(self, &p->seen_size) == ABT_SUCCESS && buf[n - 512] != 1;
}

static int is_mapped(void *addr)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    unsigned long lo, hi, a = (unsigned long)(uintptr_t)addr;
    char line[512];
    int found = 0;
    if (!maps) {
        BB_FAIL_AT("cannot open %s", "/proc/self/maps");
        return 0;
    }
    while (!found && fgets(line, sizeof(line), maps))
        found = sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi;
    fclose(maps);
    return found;
}

/* Creates a ULT with a `size`-byte stack into `pool` and returns its stack
 * (the ULT has not run yet). */
static void *create_sized(ABT_pool pool, size_t size, struct probe *p, ABT_thread *t)
{
    ABT_thread_attr attr;
    void *stack = NULL;
    p->size = size;
    p->ok = 0;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, size));
    CHECK_OK(ABT_thread_create(pool, body, p, attr, t));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_thread_get_stack(*t, &stack, NULL));
    CHECK(stack != NULL);
    return stack;
}

/* Runs and frees it, checking what it saw. */
static void finish(ABT_thread *t, const struct probe *p)
{
    CHECK_OK(ABT_thread_free(t));
    CHECK(p->ok);
    CHECK_EQ(p->seen_size, p->size);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(30);
    static const size_t sizes[NUM_SIZES] = {64 << 10, 96 << 10, 256 << 10, 1 << 20};
    ABT_xstream es;
    ABT_pool pool;
    struct probe p[NUM_SIZES + 1];
    ABT_thread t[NUM_SIZES + 1];
    void *stack[NUM_SIZES + 1];
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    /* Four sizes: each freed stack stays, and comes back. */
    for (int i = 0; i < NUM_SIZES; i++) {
        stack[i] = create_sized(pool, sizes[i], &p[i], &t[i]);
        finish(&t[i], &p[i]);
        CHECK(is_mapped(stack[i]));
        void *again = create_sized(pool, sizes[i], &p[i], &t[i]);
        CHECK(again == stack[i]);
        finish(&t[i], &p[i]);
        CHECK(is_mapped(stack[i]));
    }

    /* A fifth size finds no slot: the four each keep a free stack. */
    stack[NUM_SIZES] = create_sized(pool, 128 << 10, &p[NUM_SIZES], &t[NUM_SIZES]);
    finish(&t[NUM_SIZES], &p[NUM_SIZES]);
    CHECK(!is_mapped(stack[NUM_SIZES]));

    /* Emptied, the four slots are free for other sizes (the ULTs keep their
     * stacks until they are freed, below). */
    for (int i = 0; i < NUM_SIZES; i++)
        CHECK(create_sized(pool, sizes[i], &p[i], &t[i]) == stack[i]);

    /* At most 64 MiB of free stacks of one size: two of three stay. */
    struct probe bp[3];
    ABT_thread bt[3];
    void *big[3];
    for (int i = 0; i < 3; i++)
        big[i] = create_sized(pool, BIG_SIZE, &bp[i], &bt[i]);
    for (int i = 0; i < 3; i++)
        finish(&bt[i], &bp[i]);
    CHECK_EQ(is_mapped(big[0]) + is_mapped(big[1]) + is_mapped(big[2]), 2);

    for (int i = 0; i < NUM_SIZES; i++)
        finish(&t[i], &p[i]);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
