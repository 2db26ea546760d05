/* ABT_self_resume_yield_to(t): t, a ULT blocked in ABT_self_suspend, is made
 * ready and runs at once (before the caller continues and before anything
 * else queued); the caller goes back to its pool. Errors: NULL target or a
 * tasklet target -> INV_THREAD; tasklet caller -> INV_THREAD; external
 * caller -> INV_XSTREAM; a target that is not suspended (READY in its pool)
 * -> THREAD, also for ABT_self_resume_suspend_to and ABT_self_resume_exit_to,
 * and the caller goes on, the target untouched (it still runs in turn). */
#include "handover_util.h"

static ABT_thread sleeper, waker, other;
static int r_ok = -1, r_null = -1, r_task_target = -1;
static int r_ready[3] = {-1, -1, -1};
static ABT_thread_state st_other = (ABT_thread_state)-1;
static ABT_thread_state st_before = (ABT_thread_state)-1;

static void fs(void *arg)
{
    (void)arg;
    note('s');
    ABT_self_suspend();
    note('S');
}

static void fo(void *arg)
{
    (void)arg;
    note('o');
}

static void fw(void *arg)
{
    (void)arg;
    note('w');
    ABT_thread_get_state(sleeper, &st_before);
    r_null = ABT_self_resume_yield_to(ABT_THREAD_NULL);
    r_task_target = ABT_self_resume_yield_to(done_task);
    r_ready[0] = ABT_self_resume_yield_to(other); /* READY, queued: not suspended */
    r_ready[1] = ABT_self_resume_suspend_to(other);
    r_ready[2] = ABT_self_resume_exit_to(other);
    ABT_thread_get_state(other, &st_other);
    r_ok = ABT_self_resume_yield_to(sleeper);
    note('W');
}

/* The call under test, from a tasklet or an external thread. */
static int resume_yield_to_sleeper(void)
{
    return ABT_self_resume_yield_to(sleeper);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    start_es(argc, argv);
    make_done_task();

    queue_ults(fs, &sleeper, fw, &waker, fo, &other);
    CHECK_OK(ABT_thread_join(sleeper));
    CHECK_OK(ABT_thread_join(waker));
    CHECK_OK(ABT_thread_join(other));
    CHECK_EQ(st_before, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(r_ready[i], ABT_ERR_THREAD);
    CHECK_EQ(st_other, ABT_THREAD_STATE_READY);
    /* sleeper runs right after the call, before `other`, then waker. */
    CHECK_ORDER("swSoW");

    CHECK_EQ(call_from_tasklet(resume_yield_to_sleeper), ABT_ERR_INV_THREAD);
    CHECK_EQ(call_from_external(resume_yield_to_sleeper), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_OK(ABT_thread_free(&waker));
    CHECK_OK(ABT_thread_free(&other));
    stop_es();
    BB_TEST_END();
}
