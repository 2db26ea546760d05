/* ABT_info_print_thread_stack on a ULT that is running on another ES dumps
 * its stack from the lowest address (docs/REFERENCE.md: meaningful only
 * while the ULT waits, but allowed). Under valgrind's memcheck the part
 * below that ULT's stack pointer, which it used and left, is "no access":
 * each dump reported invalid reads inside the library (the dump was made
 * safe for AddressSanitizer and for undefined words, not for that). Run
 * under valgrind, the test counts memcheck's errors around the dumps
 * (VALGRIND_COUNT_ERRORS) and fails if they grew; elsewhere it only checks
 * that the calls succeed. */
#include <stdatomic.h>
#include "bb_test.h"

static atomic_int stop, deep_done;

static __attribute__((noinline)) long go_deep(int n)
{
    volatile char pad[512];
    for (size_t i = 0; i < sizeof(pad); i++)
        pad[i] = (char)(i + n);
    return n == 0 ? pad[7] : go_deep(n - 1) + pad[n % 512];
}

/* Uses some 6 KiB of its stack, returns (the stack pointer goes back up),
 * and keeps running until told to stop. */
static void runner(void *arg)
{
    *(long *)arg = go_deep(12);
    atomic_store(&deep_done, 1);
    while (!atomic_load(&stop))
        ;
}

int main(void)
{
    BB_TEST_BEGIN(120);
    CHECK_OK(ABT_init(0, NULL));
    FILE *devnull = fopen("/dev/null", "w");
    CHECK(devnull != NULL);
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    long result = 0;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, runner, &result, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&deep_done))
        CHECK_OK(ABT_thread_yield());
    unsigned before = VALGRIND_COUNT_ERRORS;
    for (int i = 0; i < 5; i++)
        CHECK_OK(ABT_info_print_thread_stack(devnull, t)); /* it runs meanwhile */
    unsigned after = VALGRIND_COUNT_ERRORS;
    CHECK_EQ(after, before);
    atomic_store(&stop, 1);
    CHECK_OK(ABT_thread_free(&t));
    CHECK(result != 0);
    CHECK_OK(ABT_xstream_free(&es));
    fclose(devnull);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
