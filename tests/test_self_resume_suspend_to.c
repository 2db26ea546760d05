/* ABT_self_resume_suspend_to(t): the caller suspends itself and the blocked
 * ULT t resumes and runs at once; t later wakes the caller with
 * ABT_thread_resume. Errors: NULL / tasklet target -> INV_THREAD. */
#include "handover_util.h"

static ABT_thread first, second;
static int r_ok = -1, r_null = -1, r_task_target = -1, r_wake = -1;
static ABT_thread_state second_state = (ABT_thread_state)-1;

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

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    start_es(argc, argv);
    make_done_task();

    queue_ults(f1, &first, f2, &second, NULL, NULL);
    CHECK_OK(ABT_thread_join(first));
    CHECK_OK(ABT_thread_join(second));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    CHECK_EQ(second_state, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(r_wake, ABT_SUCCESS);
    CHECK_ORDER("12REF");

    CHECK_OK(ABT_thread_free(&first));
    CHECK_OK(ABT_thread_free(&second));
    stop_es();
    BB_TEST_END();
}
