/* ABT_self_schedule runs only a READY unit: one that has terminated, or a
 * ULT suspended (BLOCKED), gives ABT_ERR_THREAD and is left as it is
 * (REFERENCE, section 4: "a unit that is not READY (running, blocked,
 * finished) gives THREAD"). Mutation testing (self.c) found nothing
 * checking it. */
#include "bb_test.h"

static int runs;

static void body(void *arg)
{
    (void)arg;
    runs++;
}

static void suspender(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_self_suspend());
    runs++;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool main_pool = bb_test_main_pool();

    for (int ult = 0; ult < 2; ult++) {
        runs = 0;
        ABT_thread t;
        if (ult)
            CHECK_OK(ABT_thread_create(main_pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
        else
            CHECK_OK(ABT_task_create(main_pool, body, NULL, &t));
        CHECK_OK(ABT_thread_join(t));
        CHECK_EQ(runs, 1);
        CHECK_ERR(ABT_self_schedule(t, ABT_POOL_NULL), ABT_ERR_THREAD);
        CHECK_EQ(runs, 1);
        ABT_thread_state st;
        CHECK_OK(ABT_thread_get_state(t, &st));
        CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
        CHECK_OK(ABT_thread_free(&t));
    }

    runs = 0;
    ABT_thread s;
    CHECK_OK(ABT_thread_create(main_pool, suspender, NULL, ABT_THREAD_ATTR_NULL, &s));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (;;) {
        CHECK_OK(ABT_thread_get_state(s, &st));
        if (st == ABT_THREAD_STATE_BLOCKED)
            break;
        ABT_thread_yield();
    }
    CHECK_ERR(ABT_self_schedule(s, ABT_POOL_NULL), ABT_ERR_THREAD);
    CHECK_EQ(runs, 0);
    CHECK_OK(ABT_thread_resume(s)); /* still suspended: the resume works */
    CHECK_OK(ABT_thread_free(&s));
    CHECK_EQ(runs, 1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
