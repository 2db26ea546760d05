/* ABT_TOOL_QUERY_KIND_STACK_DEPTH counts every unit the event's unit runs
 * under, down to the main scheduler (1 directly on it), as Argobots counts
 * its parents: a ULT or tasklet that a plain ULT runs with
 * ABT_self_schedule runs two deep (the ULT, then the main scheduler), not 0
 * as when only schedulers counted. Directly on a main scheduler it is 1, under
 * a stacked scheduler 2. */
#include "bb_test.h"
#include <stdatomic.h>
#include <stdbool.h>

static _Atomic(ABT_thread) watched;
static atomic_int run_depth = -1, finish_depth = -1;

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)es, (void)arg;
    if (unit != atomic_load(&watched))
        return;
    int depth = -1;
    if (ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_STACK_DEPTH, &depth) != ABT_SUCCESS)
        depth = -2;
    if (event == ABT_TOOL_EVENT_THREAD_RUN)
        atomic_store(&run_depth, depth);
    else if (event == ABT_TOOL_EVENT_THREAD_FINISH)
        atomic_store(&finish_depth, depth);
}

static void leaf(void *arg)
{
    (void)arg;
}

static ABT_pool aside; /* no scheduler serves it */

/* A unit made in `aside` and watched; returns its handle. */
static ABT_thread make(bool ult)
{
    ABT_thread t;
    if (ult)
        CHECK_OK(ABT_thread_create(aside, leaf, NULL, ABT_THREAD_ATTR_NULL, &t));
    else
        CHECK_OK(ABT_task_create(aside, leaf, NULL, &t));
    atomic_store(&run_depth, -1);
    atomic_store(&finish_depth, -1);
    atomic_store(&watched, t);
    return t;
}

static void scheduling_ult(void *arg)
{
    (void)arg;
    for (int ult = 0; ult < 2; ult++) {
        ABT_thread t = make(ult), popped;
        CHECK_OK(ABT_pool_pop_thread(aside, &popped));
        CHECK(popped == t);
        CHECK_OK(ABT_self_schedule(popped, ABT_POOL_NULL));
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(atomic_load(&run_depth), 2);
        CHECK_EQ(atomic_load(&finish_depth), 2);
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &aside));
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, NULL));

    /* directly on the main scheduler */
    ABT_thread t = make(true);
    CHECK_OK(ABT_thread_migrate_to_pool(t, pool));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&run_depth), 1);
    CHECK_EQ(atomic_load(&finish_depth), 1);

    /* under a stacked scheduler */
    ABT_pool inner;
    ABT_sched sched;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &inner));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &inner, ABT_SCHED_CONFIG_NULL, &sched));
    t = make(true);
    CHECK_OK(ABT_thread_migrate_to_pool(t, inner));
    CHECK_OK(ABT_pool_add_sched(pool, sched));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&run_depth), 2);
    CHECK_EQ(atomic_load(&finish_depth), 2);

    /* run by a plain ULT */
    atomic_store(&watched, ABT_THREAD_NULL);
    CHECK_OK(ABT_thread_create(pool, scheduling_ult, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));

    CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    /* The stacked scheduler, automatic, ends once its pool is empty and
     * goes with its pool: its handle is not used again. */
    CHECK_OK(ABT_pool_free(&aside));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
