/* ABT_thread_create / ABT_thread_create_on_xstream: a named ULT starts READY
 * with no last ES, runs its function with its argument on the ES that owns
 * the pool, ends TERMINATED after join, and free clears the handle. */
#include "bb_test.h"

#define NUM_ES 3

static int ran_on_rank[2 * NUM_ES];
static void *seen_arg[2 * NUM_ES];

static void body(void *arg)
{
    int idx = (int)(intptr_t)arg;
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    ran_on_rank[idx] = rank;
    seen_arg[idx] = arg;
}

static ABT_pool from_task_pool;
static ABT_thread from_task;
static int from_task_ret = -1;

static void task_creator(void *arg)
{
    (void)arg;
    from_task_ret = ABT_thread_create(from_task_pool, body, (void *)(intptr_t)0,
                                      ABT_THREAD_ATTR_NULL, &from_task);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream xs[NUM_ES];
    ABT_pool pools[NUM_ES];
    ABT_thread t[2 * NUM_ES];

    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&xs[0]));
    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));

    /* A ULT in the primary pool cannot run before the primary ULT yields. */
    ABT_thread pending;
    CHECK_OK(ABT_thread_create(pools[0], body, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL,
                               &pending));
    CHECK(pending != ABT_THREAD_NULL);
    ABT_thread_state st = (ABT_thread_state)-1;
    CHECK_OK(ABT_thread_get_state(pending, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_READY);
    ABT_xstream last = (ABT_xstream)(intptr_t)0x1;
    CHECK_OK(ABT_thread_get_last_xstream(pending, &last));
    CHECK(last == ABT_XSTREAM_NULL);
    ran_on_rank[0] = -1;
    CHECK_OK(ABT_thread_free(&pending));
    CHECK(pending == ABT_THREAD_NULL);
    CHECK_EQ(ran_on_rank[0], 0);
    CHECK(seen_arg[0] == (void *)(intptr_t)0);

    for (int i = 0; i < 2 * NUM_ES; i++)
        ran_on_rank[i] = -1;
    for (int i = 0; i < NUM_ES; i++) {
        CHECK_OK(ABT_thread_create(pools[i], body, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                                   &t[i]));
        CHECK_OK(ABT_thread_create_on_xstream(xs[i], body, (void *)(intptr_t)(NUM_ES + i),
                                              ABT_THREAD_ATTR_NULL, &t[NUM_ES + i]));
    }
    for (int i = 0; i < 2 * NUM_ES; i++) {
        CHECK_OK(ABT_thread_join(t[i]));
        CHECK_OK(ABT_thread_get_state(t[i], &st));
        CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
        CHECK_OK(ABT_thread_get_last_xstream(t[i], &last));
        CHECK(last == xs[i % NUM_ES]);
        CHECK_EQ(ran_on_rank[i], i % NUM_ES);
        CHECK(seen_arg[i] == (void *)(intptr_t)i);
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK(t[i] == ABT_THREAD_NULL);
    }

    /* Any caller may create: a tasklet creates a named ULT on another ES. */
    from_task_pool = pools[2];
    ran_on_rank[0] = -1;
    ABT_task tk;
    CHECK_OK(ABT_task_create(pools[1], task_creator, NULL, &tk));
    CHECK_OK(ABT_task_free(&tk));
    CHECK_OK(from_task_ret);
    CHECK_OK(ABT_thread_free(&from_task));
    CHECK_EQ(ran_on_rank[0], 2);

    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&xs[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
