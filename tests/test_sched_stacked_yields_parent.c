/* A stacked scheduler yields back to its parent now and then (bobbin,
 * issue3-choices.md), so the parent keeps serving its other work while the
 * stacked scheduler still has work: the stacked pool holds units that yield
 * until a flag is set, and only a unit outside the stacked scheduler (in the
 * parent's pool) sets it. If the parent never ran again this would hang
 * (the watchdog turns that into a failure). Checked with the setter behind
 * the stacked scheduler in the parent's only pool, and with the setter in
 * the parent's other pool (pushed after the stacked units started), for a
 * BASIC and for a BASIC_WAIT stacked scheduler. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

#define M 4

static atomic_int flag, started, done, setter_ran;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    while (!atomic_load(&flag))
        ABT_thread_yield();
    atomic_fetch_add(&done, 1);
}

static void setter(void *arg)
{
    (void)arg;
    atomic_store(&setter_ran, 1);
    atomic_store(&flag, 1);
}

static void one_round(ABT_sched_predef stacked_kind, int parent_pools)
{
    atomic_store(&flag, 0);
    atomic_store(&started, 0);
    atomic_store(&done, 0);
    atomic_store(&setter_ran, 0);
    ABT_pool pp[2];
    for (int i = 0; i < parent_pools; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pp[i]));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, parent_pools, pp, ABT_SCHED_CONFIG_NULL,
                                      &es));

    ABT_pool q;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    for (int i = 0; i < M; i++)
        CHECK_OK(ABT_thread_create(q, waiter, NULL, ABT_THREAD_ATTR_NULL, NULL));
    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(stacked_kind, 1, &q, ABT_SCHED_CONFIG_NULL, &s));

    if (parent_pools == 1) {
        /* Parent pool: [stacked scheduler, setter]. */
        CHECK_OK(ABT_pool_add_sched(pp[0], s));
        CHECK_OK(ABT_thread_create(pp[0], setter, NULL, ABT_THREAD_ATTR_NULL, NULL));
    } else {
        /* Stacked scheduler in the parent's last pool; once its units run,
         * the setter goes to the parent's first pool. */
        CHECK_OK(ABT_pool_add_sched(pp[1], s));
        double end = now() + 3.0;
        while (atomic_load(&started) < M && now() < end)
            usleep(200);
        CHECK_EQ(atomic_load(&started), M);
        CHECK_OK(ABT_thread_create(pp[0], setter, NULL, ABT_THREAD_ATTR_NULL, NULL));
    }
    double end = now() + 5.0;
    while (atomic_load(&done) < M && now() < end)
        usleep(500);
    CHECK_EQ(atomic_load(&setter_ran), 1);
    CHECK_EQ(atomic_load(&done), M);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&q)); /* the automatic stacked scheduler is gone */
    for (int i = 0; i < parent_pools; i++)
        CHECK_OK(ABT_pool_free(&pp[i]));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    one_round(ABT_SCHED_BASIC, 1);
    one_round(ABT_SCHED_BASIC, 2);
    one_round(ABT_SCHED_BASIC_WAIT, 1);
    one_round(ABT_SCHED_BASIC_WAIT, 2);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
