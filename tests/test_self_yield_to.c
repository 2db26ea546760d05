/* ABT_self_yield_to(t) with a READY ULT t that the caller popped from a pool
 * itself: t runs at once, the caller goes to the back of its own pool (behind
 * a ULT already queued there). Errors: NULL target, the caller itself, a
 * tasklet target -> INV_THREAD; tasklet caller -> INV_THREAD; external
 * caller -> INV_XSTREAM. */
#include "handover_util.h"

static ABT_thread target, queued;
static int r_ok = -1, r_null = -1, r_self = -1, r_task_target = -1, popped_ok;
static ABT_xstream target_es;

static void fb(void *arg)
{
    (void)arg;
    note('b');
    ABT_self_get_xstream(&target_es);
}

static void fc(void *arg)
{
    (void)arg;
    note('c');
}

static void fa(void *arg)
{
    (void)arg;
    ABT_thread self;
    ABT_self_get_thread(&self);
    r_null = ABT_self_yield_to(ABT_THREAD_NULL);
    r_self = ABT_self_yield_to(self);
    r_task_target = ABT_self_yield_to(done_task);

    ABT_unit unit = create_popped_ult(fb, NULL, &target);
    ABT_unit expected = ABT_UNIT_NULL;
    ABT_thread_create(pool1, fc, NULL, ABT_THREAD_ATTR_NULL, &queued);
    ABT_thread_get_unit(target, &expected);
    popped_ok = unit != ABT_UNIT_NULL && unit == expected;
    ABT_thread_set_associated_pool(target, pool1);
    note('a');
    r_ok = ABT_self_yield_to(target);
    note('A');
}

/* The call under test, from a tasklet or an external thread. */
static int yield_to_queued(void)
{
    return ABT_self_yield_to(queued);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    start_es(argc, argv);
    make_side_pool();
    make_done_task();

    run_ult(fa, NULL);
    CHECK(popped_ok);
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    CHECK_ORDER("abcA");
    CHECK(target_es == es);
    CHECK_OK(ABT_thread_free(&target));

    /* `queued` has finished; the caller-kind checks come before it matters. */
    CHECK_EQ(call_from_tasklet(yield_to_queued), ABT_ERR_INV_THREAD);
    CHECK_EQ(call_from_external(yield_to_queued), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&queued));
    stop_es();
    BB_TEST_END();
}
