/* ABT_self_suspend_to(t): the caller becomes BLOCKED (and is not queued) and
 * the popped ULT t runs at once. The caller stays blocked until t resumes it
 * with ABT_thread_resume, and then continues after the call. Errors as for
 * yield_to. */
#include "handover_util.h"

static ABT_thread caller, target;
static ABT_thread_state caller_state_in_target = (ABT_thread_state)-1;
static int r_ok = -1, r_null = -1, r_self = -1, r_resume = -1;

static void fb(void *arg)
{
    (void)arg;
    note('b');
    ABT_thread_get_state(caller, &caller_state_in_target);
    /* Yield a few times: the blocked caller must not come back by itself. */
    for (int i = 0; i < 5; i++)
        ABT_thread_yield();
    note('r');
    r_resume = ABT_thread_resume(caller);
    note('B');
}

static void fa(void *arg)
{
    (void)arg;
    ABT_self_get_thread(&caller);
    r_null = ABT_self_suspend_to(ABT_THREAD_NULL);
    r_self = ABT_self_suspend_to(caller);
    create_popped_ult(fb, NULL, &target);
    ABT_thread_set_associated_pool(target, pool1);
    note('a');
    r_ok = ABT_self_suspend_to(target);
    note('A');
}

/* The call under test, from a tasklet or an external thread. */
static int suspend_to_target(void)
{
    return ABT_self_suspend_to(target);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    start_es(argc, argv);
    make_side_pool();

    ABT_thread a;
    CHECK_OK(ABT_thread_create(pool1, fa, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_join(a));
    CHECK_OK(ABT_thread_join(target));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    CHECK_EQ(r_resume, ABT_SUCCESS);
    CHECK_EQ(caller_state_in_target, ABT_THREAD_STATE_BLOCKED);
    CHECK_ORDER("abrBA");

    CHECK_EQ(call_from_tasklet(suspend_to_target), ABT_ERR_INV_THREAD);
    CHECK_EQ(call_from_external(suspend_to_target), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&target));
    stop_es();
    BB_TEST_END();
}
