/* ABT_thread_revive starts the unit afresh:
 *  - a cancel that ended its last run does not carry over: the revived unit
 *    runs its new function (Argobots clears the unit's requests on revive);
 *  - a tool registered for ABT_TOOL_EVENT_THREAD_REVIVE hears the revive,
 *    once, for that unit, with the target pool as the event's pool and the
 *    reviver as its caller.
 * For a ULT and a tasklet. Mutation testing (unit.c, bb_unit_revive) found
 * nothing checking either. */
#include "bb_test.h"

static int ran_first, ran_second;
static int revives;
static ABT_thread revived_unit;
static ABT_pool revive_pool;
static ABT_thread revive_caller;

static void first(void *arg)
{
    (void)arg;
    ran_first++;
}

static void second(void *arg)
{
    (void)arg;
    ran_second++;
}

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)es;
    (void)arg;
    if (event != ABT_TOOL_EVENT_THREAD_REVIVE)
        return;
    revives++;
    revived_unit = unit;
    ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_POOL, &revive_pool);
    ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_CALLER_HANDLE, &revive_caller);
}

static void one_kind(int ult)
{
    ABT_pool main_pool = bb_test_main_pool();
    ABT_pool idle; /* no scheduler serves it: the unit waits there */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    ran_first = ran_second = 0;
    ABT_thread t;
    if (ult)
        CHECK_OK(ABT_thread_create(idle, first, NULL, ABT_THREAD_ATTR_NULL, &t));
    else
        CHECK_OK(ABT_task_create(idle, first, NULL, &t));
    CHECK_OK(ABT_thread_cancel(t));
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(idle, &popped));
    CHECK(popped == t);
    CHECK_OK(ABT_pool_push_thread(main_pool, popped));
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(ran_first, 0); /* cancelled before it ran */

    ABT_thread me;
    CHECK_OK(ABT_self_get_thread(&me));
    revives = 0;
    revived_unit = ABT_THREAD_NULL;
    revive_pool = ABT_POOL_NULL;
    revive_caller = ABT_THREAD_NULL;
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_REVIVE, NULL));
    CHECK_OK(ABT_thread_revive(main_pool, second, NULL, &t));
    CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    CHECK_EQ(revives, 1);
    CHECK(revived_unit == t);
    CHECK(revive_pool == main_pool);
    CHECK(revive_caller == me);
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(ran_second, 1); /* the old cancel is gone */
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_pool_free(&idle));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    one_kind(1);
    one_kind(0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
