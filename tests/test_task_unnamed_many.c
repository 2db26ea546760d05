/* 10,000 unnamed tasklets over three ESs all run once and are reclaimed by
 * the runtime; inside, each sees itself as an unnamed tasklet. */
#include "bb_test.h"

#define NUM_ES 3
#define NUM_TASKS 10000

static int done;
static int bad;

static void body(void *arg)
{
    (void)arg;
    ABT_bool unnamed = ABT_FALSE;
    ABT_unit_type type = ABT_UNIT_TYPE_EXT;
    if (ABT_self_is_unnamed(&unnamed) != ABT_SUCCESS || unnamed != ABT_TRUE)
        __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
    if (ABT_self_get_type(&type) != ABT_SUCCESS || type != ABT_UNIT_TYPE_TASK)
        __atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&done, 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(30);
    ABT_xstream xs[NUM_ES];
    ABT_pool pools[NUM_ES];
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&xs[0]));
    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &xs[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(xs[i], 1, &pools[i]));

    int failures = 0;
    for (int i = 0; i < NUM_TASKS; i++) {
        int ret = (i & 1) ? ABT_task_create(pools[i % NUM_ES], body, NULL, NULL)
                          : ABT_task_create_on_xstream(xs[i % NUM_ES], body, NULL, NULL);
        if (ret != ABT_SUCCESS)
            failures++;
    }
    CHECK_EQ(failures, 0);
    while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < NUM_TASKS)
        ABT_thread_yield();
    CHECK_EQ(done, NUM_TASKS);
    CHECK_EQ(bad, 0);

    for (int i = 1; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&xs[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
