/* ABT_info_print_thread_stacks_in_pool and ABT_info_print_thread_stack dump
 * the stack of a ULT that waits in a pool, while another ULT, running on
 * another ES, writes a variable that lives on that stack (a pointer to a
 * local handed to another unit, as every create_to or fork-join argument
 * is). The dump is a snapshot of memory others may be writing: under
 * ThreadSanitizer it must not be reported as a data race in the library
 * (it was: the dump was exempt from AddressSanitizer only), and under the
 * other builds nothing changes: the calls succeed and the writer's last
 * value is the one the waiting ULT finds. Fails under the TSan build
 * (exit code 66 from TSan's report) before the fix. */
#include <stdatomic.h>
#include "bb_test.h"

static _Atomic(volatile long *) shared;
static atomic_int stop, published;

/* Waits in the primary ES's pool (which only the primary ES pops) with a
 * local that the writer on the other ES keeps changing. */
static void waiter(void *arg)
{
    (void)arg;
    volatile long x = 0;
    atomic_store(&shared, &x);
    atomic_store(&published, 1);
    while (!atomic_load(&stop))
        CHECK_OK(ABT_thread_yield());
    CHECK(x == 999999);
}

static void writer(void *arg)
{
    (void)arg;
    volatile long *p = atomic_load(&shared);
    for (long i = 0; i < 1000000; i++)
        *p = i;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    FILE *devnull = fopen("/dev/null", "w");
    CHECK(devnull != NULL);
    ABT_xstream self, es;
    ABT_pool main_pool, es_pool;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_pool));

    ABT_thread w, t;
    CHECK_OK(ABT_thread_create(main_pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
    while (!atomic_load(&published))
        CHECK_OK(ABT_thread_yield()); /* the waiter ran: now behind us, in the pool */
    CHECK_OK(ABT_thread_create(es_pool, writer, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    do { /* dump the waiter's stack while the writer writes into it */
        CHECK_OK(ABT_info_print_thread_stacks_in_pool(devnull, main_pool));
        CHECK_OK(ABT_info_print_thread_stack(devnull, w));
        CHECK_OK(ABT_thread_get_state(t, &st));
    } while (st != ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&t)); /* the writer's stores happen before the waiter's check */
    atomic_store(&stop, 1);
    CHECK_OK(ABT_thread_free(&w));
    CHECK_OK(ABT_xstream_free(&es));
    fclose(devnull);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
