/* ABT_self_resume_exit_to(t): the caller terminates and the blocked ULT t
 * resumes at once, before anything else queued. Errors: NULL / tasklet target
 * -> INV_THREAD; the primary ULT as caller -> INV_THREAD; tasklet caller ->
 * INV_THREAD; external caller -> INV_XSTREAM. */
#include "handover_util.h"

static ABT_thread sleeper, exiter, other;
static int r_null = -1, r_task_target = -1;
static ABT_thread_state exiter_state = (ABT_thread_state)-1;

static void fs(void *arg)
{
    (void)arg;
    note('s');
    ABT_self_suspend();
    note('S');
    ABT_thread_get_state(exiter, &exiter_state);
}

static void fe(void *arg)
{
    (void)arg;
    note('e');
    r_null = ABT_self_resume_exit_to(ABT_THREAD_NULL);
    r_task_target = ABT_self_resume_exit_to(done_task);
    ABT_self_resume_exit_to(sleeper);
    note('X'); /* never */
}

static void fo(void *arg)
{
    (void)arg;
    note('o');
}

/* The call under test, from a tasklet or an external thread. */
static int resume_exit_to_sleeper(void)
{
    return ABT_self_resume_exit_to(sleeper);
}

static void suspend_once(void *arg)
{
    (void)arg;
    ABT_self_suspend();
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    start_es(argc, argv);
    make_done_task();

    queue_ults(fs, &sleeper, fe, &exiter, fo, &other);
    CHECK_OK(ABT_thread_join(sleeper));
    CHECK_OK(ABT_thread_join(exiter));
    CHECK_OK(ABT_thread_join(other));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(exiter_state, ABT_THREAD_STATE_TERMINATED);
    CHECK_ORDER("seSo");

    /* The primary ULT may not exit this way. */
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    ABT_thread blocked;
    CHECK_OK(ABT_thread_create(pool0, suspend_once, NULL, ABT_THREAD_ATTR_NULL, &blocked));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        ABT_thread_yield();
        ABT_thread_get_state(blocked, &st);
    }
    CHECK_ERR(ABT_self_resume_exit_to(blocked), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_thread_resume(blocked));
    CHECK_OK(ABT_thread_free(&blocked));

    CHECK_EQ(call_from_tasklet(resume_exit_to_sleeper), ABT_ERR_INV_THREAD);
    CHECK_EQ(call_from_external(resume_exit_to_sleeper), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_OK(ABT_thread_free(&exiter));
    CHECK_OK(ABT_thread_free(&other));
    stop_es();
    BB_TEST_END();
}
