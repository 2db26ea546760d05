/* A ULT waiting on an ABT_xstream_barrier holds its ES: another ULT queued
 * on that ES does not run until the barrier completes (unlike ABT_barrier,
 * whose waiting ULTs let their ES run other work). The waiter stays RUNNING
 * meanwhile. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_xstream_barrier barrier;
static atomic_int about_to_wait, passed, other_ran, other_ran_before_pass;

static void waiter(void *arg)
{
    (void)arg;
    atomic_store(&about_to_wait, 1);
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    atomic_store(&passed, 1);
}

static void other(void *arg)
{
    (void)arg;
    if (!atomic_load(&passed))
        atomic_store(&other_ran_before_pass, 1);
    atomic_store(&other_ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_barrier_create(2, &barrier));

    ABT_thread w, o;
    CHECK_OK(ABT_thread_create(pool1, waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
    while (!atomic_load(&about_to_wait))
        usleep(100);
    CHECK_OK(ABT_thread_create(pool1, other, NULL, ABT_THREAD_ATTR_NULL, &o));
    usleep(30000);
    CHECK_EQ(atomic_load(&other_ran), 0);
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(w, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_RUNNING);

    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    CHECK_OK(ABT_thread_free(&w));
    CHECK_OK(ABT_thread_free(&o));
    CHECK_EQ(atomic_load(&passed), 1);
    CHECK_EQ(atomic_load(&other_ran), 1);
    CHECK_EQ(atomic_load(&other_ran_before_pass), 0);

    CHECK_OK(ABT_xstream_barrier_free(&barrier));
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
