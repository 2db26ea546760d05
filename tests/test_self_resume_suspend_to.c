/* ABT_self_resume_suspend_to(t): the caller suspends itself and the blocked
 * ULT t resumes and runs at once; t later wakes the caller with
 * ABT_thread_resume. Errors: NULL / tasklet target -> INV_THREAD. */
#include "bb_test.h"

static ABT_pool pool1;
static char order[16];
static int pos;
static ABT_thread first, second;
static ABT_task done_task;
static int r_ok = -1, r_null = -1, r_task_target = -1, r_wake = -1;
static ABT_thread_state second_state = (ABT_thread_state)-1;

static void note(char c)
{
    order[pos++] = c;
}

static void f1(void *arg)
{
    (void)arg;
    note('1');
    ABT_self_suspend();
    note('R'); /* resumed by `second` */
    ABT_thread_get_state(second, &second_state);
    r_wake = ABT_thread_resume(second);
    note('E');
}

static void f2(void *arg)
{
    (void)arg;
    note('2');
    r_null = ABT_self_resume_suspend_to(ABT_THREAD_NULL);
    r_task_target = ABT_self_resume_suspend_to(done_task);
    r_ok = ABT_self_resume_suspend_to(first);
    note('F');
}

static void setup(void *arg)
{
    (void)arg;
    ABT_thread_create(pool1, f1, NULL, ABT_THREAD_ATTR_NULL, &first);
    ABT_thread_create(pool1, f2, NULL, ABT_THREAD_ATTR_NULL, &second);
}

static void noop(void *arg)
{
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_task_create(pool1, noop, NULL, &done_task));
    CHECK_OK(ABT_task_join(done_task));

    ABT_thread s;
    CHECK_OK(ABT_thread_create(pool1, setup, NULL, ABT_THREAD_ATTR_NULL, &s));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_thread_join(first));
    CHECK_OK(ABT_thread_join(second));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    CHECK_EQ(second_state, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(r_wake, ABT_SUCCESS);
    CHECK(strcmp(order, "12REF") == 0);
    if (strcmp(order, "12REF") != 0)
        fprintf(stderr, "order was %s\n", order);

    CHECK_OK(ABT_thread_free(&first));
    CHECK_OK(ABT_thread_free(&second));
    CHECK_OK(ABT_task_free(&done_task));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
