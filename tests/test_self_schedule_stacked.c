/* A user scheduler whose loop runs what it pops with ABT_self_schedule, the
 * Argobots 1.2 way, drives ES 1. A predefined BASIC scheduler is stacked
 * into its pool (ABT_pool_add_sched) with work of its own in an inner pool:
 * the outer loop pops the stacked scheduler's ULT and ABT_self_schedule
 * runs it like any ULT, so the inner work runs on ES 1 (before, the
 * stacked scheduler was refused with ABT_ERR_INV_THREAD and the inner work
 * never ran). The scheduler's own ULT is still refused. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 16

static atomic_int inner_ran, outer_ran, refusals_ok, errors;
static ABT_pool outer, inner;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void inner_work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&inner_ran, 1);
}

static void outer_work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&outer_ran, 1);
}

static void outer_run(ABT_sched sched)
{
    ABT_thread me = ABT_THREAD_NULL;
    note(ABT_self_get_thread(&me));
    if (ABT_self_schedule(me, ABT_POOL_NULL) == ABT_ERR_INV_THREAD)
        atomic_fetch_add(&refusals_ok, 1);
    for (unsigned iter = 1;; iter++) {
        ABT_thread t = ABT_THREAD_NULL;
        note(ABT_pool_pop_thread(outer, &t));
        if (t != ABT_THREAD_NULL)
            note(ABT_self_schedule(t, ABT_POOL_NULL));
        if (t == ABT_THREAD_NULL || iter % 8 == 0) {
            note(ABT_xstream_check_events(sched));
            ABT_bool stop = ABT_FALSE;
            note(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
        }
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &outer));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &inner));

    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = outer_run};
    ABT_sched outer_sched, stacked;
    CHECK_OK(ABT_sched_create(&def, 1, &outer, ABT_SCHED_CONFIG_NULL, &outer_sched));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &inner, ABT_SCHED_CONFIG_NULL, &stacked));

    ABT_thread works[2 * N];
    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(inner, inner_work, NULL, ABT_THREAD_ATTR_NULL, &works[i]));
        CHECK_OK(ABT_thread_create(outer, outer_work, NULL, ABT_THREAD_ATTR_NULL, &works[N + i]));
    }
    CHECK_OK(ABT_pool_add_sched(outer, stacked));

    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create(outer_sched, &es1));
    for (int i = 0; i < 2 * N; i++)
        CHECK_OK(ABT_thread_free(&works[i]));
    CHECK_EQ(atomic_load(&inner_ran), N);
    CHECK_EQ(atomic_load(&outer_ran), N);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_EQ(atomic_load(&refusals_ok), 1);
    CHECK_EQ(atomic_load(&errors), 0);
    /* `stacked` is automatic (ABT_sched_create_basic): gone with its stop. */
    CHECK_OK(ABT_sched_free(&outer_sched));
    CHECK_OK(ABT_pool_free(&inner));
    CHECK_OK(ABT_pool_free(&outer));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
