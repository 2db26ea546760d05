/* The printers work on the smallest stack also into an unbuffered stream
 * (audit 16). glibc's fprintf formats for an unbuffered FILE (stderr, or
 * any set to _IONBF) into an 8 KiB buffer on the caller's stack: on a 4 KiB
 * ULT stack that frame stepped over the guard page below the stack into
 * the stack of the ULT below it, which crashed or, worse, was corrupted in
 * silence. The library now formats into a small buffer of its own
 * (src/info/fprintf.c).
 *
 * A ULT on an 8 KiB stack (the printers need about 3 KiB; with the
 * ucontext switch, a 4 KiB stack keeps its context at the top and has too
 * little left) calls every printer into an unbuffered stream, while ULTs on
 * 4 KiB stacks made after it wait with a pattern on their stacks, which
 * must be intact afterwards. Before the fix, the 8 KiB buffer ran into the
 * guard page or past it. */
#include "bb_test.h"

enum { NUM_NEIGHBOURS = 8, PATTERN = 0x5a, PATTERN_BYTES = 512 };

static ABT_eventual print_now, neighbours_go;
static FILE *unbuffered;
static int num_damaged;

static void neighbour(void *arg)
{
    (void)arg;
    volatile unsigned char pattern[PATTERN_BYTES];
    for (int i = 0; i < PATTERN_BYTES; i++)
        pattern[i] = PATTERN;
    CHECK_OK(ABT_eventual_wait(neighbours_go, NULL));
    for (int i = 0; i < PATTERN_BYTES; i++) {
        if (pattern[i] != PATTERN) {
            __atomic_fetch_add(&num_damaged, 1, __ATOMIC_RELAXED);
            return;
        }
    }
}

static void print_everything(void)
{
    ABT_thread self;
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_OK(ABT_self_get_xstream(&es));
    CHECK_OK(ABT_self_get_last_pool(&pool));
    CHECK_OK(ABT_info_print_config(unbuffered));
    CHECK_OK(ABT_info_print_all_xstreams(unbuffered));
    CHECK_OK(ABT_info_print_xstream(unbuffered, es));
    CHECK_OK(ABT_info_print_pool(unbuffered, pool));
    CHECK_OK(ABT_info_print_thread(unbuffered, self));
    CHECK_OK(ABT_info_print_thread_stack(unbuffered, self));
}

static void printer(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_wait(print_now, NULL));
    print_everything();
}

int main(void)
{
    BB_TEST_BEGIN(60);
    if (BB_TEST_UNDER_ASAN || BB_TEST_UNDER_TSAN) {
        printf("SKIP: a sanitizer's frames do not fit a 4 KiB stack\n");
        return 77;
    }
    unbuffered = fopen("/dev/null", "w");
    CHECK(unbuffered != NULL);
    CHECK_EQ(setvbuf(unbuffered, NULL, _IONBF, 0), 0);

    CHECK_OK(ABT_init(0, NULL));
    print_everything(); /* on the primary ULT's big stack: binds every symbol */
    CHECK_OK(ABT_eventual_create(0, &print_now));
    CHECK_OK(ABT_eventual_create(0, &neighbours_go));
    ABT_pool pool;
    CHECK_OK(ABT_self_get_last_pool(&pool));
    ABT_thread_attr printer_attr, neighbour_attr;
    CHECK_OK(ABT_thread_attr_create(&printer_attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(printer_attr, 8192));
    CHECK_OK(ABT_thread_attr_create(&neighbour_attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(neighbour_attr, 4096));
    ABT_thread p, n[NUM_NEIGHBOURS];
    CHECK_OK(ABT_thread_create(pool, printer, NULL, printer_attr, &p));
    for (int i = 0; i < NUM_NEIGHBOURS; i++)
        CHECK_OK(ABT_thread_create(pool, neighbour, NULL, neighbour_attr, &n[i]));
    CHECK_OK(ABT_thread_yield()); /* each runs up to its wait */

    CHECK_OK(ABT_eventual_set(print_now, NULL, 0));
    CHECK_OK(ABT_thread_free(&p));
    CHECK_OK(ABT_eventual_set(neighbours_go, NULL, 0));
    for (int i = 0; i < NUM_NEIGHBOURS; i++)
        CHECK_OK(ABT_thread_free(&n[i]));
    CHECK_EQ(num_damaged, 0);

    CHECK_OK(ABT_thread_attr_free(&printer_attr));
    CHECK_OK(ABT_thread_attr_free(&neighbour_attr));
    CHECK_OK(ABT_eventual_free(&print_now));
    CHECK_OK(ABT_eventual_free(&neighbours_go));
    CHECK_OK(ABT_finalize());
    fclose(unbuffered);
    BB_TEST_END();
}
