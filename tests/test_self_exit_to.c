/* ABT_self_exit_to(t): the caller terminates (code after the call never runs)
 * and the popped ULT t runs at once; t sees the caller TERMINATED and the
 * caller's joiner is released. Errors: NULL / self / tasklet target ->
 * INV_THREAD; the primary ULT as caller or as target -> INV_THREAD; tasklet
 * caller -> INV_THREAD; external caller -> INV_XSTREAM. */
#include "handover_util.h"

static ABT_thread primary, caller, target;
static ABT_thread_state caller_state = (ABT_thread_state)-1;
static int r_null = -1, r_self = -1, r_task_target = -1, r_primary_target = -1;

static void fb(void *arg)
{
    (void)arg;
    note('b');
    ABT_thread_get_state(caller, &caller_state);
}

static void fa(void *arg)
{
    (void)arg;
    ABT_self_get_thread(&caller);
    r_null = ABT_self_exit_to(ABT_THREAD_NULL);
    r_self = ABT_self_exit_to(caller);
    r_task_target = ABT_self_exit_to(done_task);
    r_primary_target = ABT_self_exit_to(primary);
    create_popped_ult(fb, NULL, &target);
    ABT_thread_set_associated_pool(target, pool1);
    note('a');
    ABT_self_exit_to(target);
    note('X'); /* must never run */
}

/* The call under test, from a tasklet or an external thread. */
static int exit_to_target(void)
{
    return ABT_self_exit_to(target);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    start_es(argc, argv);
    CHECK_OK(ABT_thread_self(&primary));
    make_side_pool();
    make_done_task();

    ABT_thread a;
    CHECK_OK(ABT_thread_create(pool1, fa, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_join(a));
    CHECK_OK(ABT_thread_join(target));
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(a, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ(caller_state, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_primary_target, ABT_ERR_INV_THREAD);
    CHECK_ORDER("ab");

    /* The primary ULT cannot exit_to: use a fresh popped ULT as target. */
    ABT_thread t2;
    ABT_unit unit = create_popped_ult(noop, NULL, &t2);
    CHECK_ERR(ABT_self_exit_to(t2), ABT_ERR_INV_THREAD);
    /* Put it where it can run, then reclaim it. */
    CHECK_OK(ABT_thread_set_associated_pool(t2, pool1));
    CHECK_OK(ABT_pool_push(pool1, unit));
    CHECK_OK(ABT_thread_free(&t2));

    CHECK_EQ(call_from_tasklet(exit_to_target), ABT_ERR_INV_THREAD);
    CHECK_EQ(call_from_external(exit_to_target), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&target));
    stop_es();
    BB_TEST_END();
}
