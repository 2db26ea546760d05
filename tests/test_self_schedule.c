/* ABT_self_schedule(t, pool): the calling ULT runs the popped unit t as its
 * own child; the caller continues when t yields or finishes. A non-NULL pool
 * re-associates t (so a yielding t goes there); ABT_POOL_NULL keeps t's pool.
 * A popped tasklet can be scheduled too. Errors: NULL thread -> INV_THREAD;
 * tasklet caller -> INV_THREAD; external caller -> INV_XSTREAM. */
#include "handover_util.h"

static ABT_thread child1, child2;
static ABT_task child_task;
static int r1 = -1, r2 = -1, r3 = -1, r_null = -1;
static ABT_pool child1_pool_after;
static ABT_xstream child1_es;

static void fc(void *arg)
{
    char c = (char)(intptr_t)arg;
    note(c);
    ABT_self_get_xstream(&child1_es);
    ABT_thread_yield();
    note((char)(c - 'a' + 'A'));
}

static void ft(void *arg)
{
    (void)arg;
    note('t');
}

static void parent(void *arg)
{
    (void)arg;
    r_null = ABT_self_schedule(ABT_THREAD_NULL, ABT_POOL_NULL);
    create_popped_ult(fc, (void *)(intptr_t)'b', &child1);
    note('p');
    r1 = ABT_self_schedule(child1, pool1); /* child1 yields into pool1 */
    ABT_thread_get_last_pool(child1, &child1_pool_after);
    note('q');

    create_popped_ult(fc, (void *)(intptr_t)'c', &child2);
    ABT_thread_set_associated_pool(child2, pool1);
    r2 = ABT_self_schedule(child2, ABT_POOL_NULL);
    note('r');

    ABT_unit unit;
    ABT_task_create(side_pool, ft, NULL, &child_task);
    ABT_pool_pop(side_pool, &unit);
    r3 = ABT_self_schedule(child_task, pool1);
    note('s');
}

/* The call under test, from a tasklet or an external thread. */
static int schedule_child1(void)
{
    return ABT_self_schedule(child1, ABT_POOL_NULL);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    start_es(argc, argv);
    make_side_pool();

    ABT_thread p;
    CHECK_OK(ABT_thread_create(pool1, parent, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_OK(ABT_thread_join(p));
    CHECK_OK(ABT_thread_join(child1));
    CHECK_OK(ABT_thread_join(child2));
    CHECK_OK(ABT_task_join(child_task));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r1, ABT_SUCCESS);
    CHECK_EQ(r2, ABT_SUCCESS);
    CHECK_EQ(r3, ABT_SUCCESS);
    CHECK(child1_pool_after == pool1);
    CHECK(child1_es == es);
    /* The parent continues whenever a child yields; the yielded children
     * finish later from pool1, in FIFO order. */
    CHECK_ORDER("pbqcrtsBC");

    CHECK_EQ(call_from_tasklet(schedule_child1), ABT_ERR_INV_THREAD);
    CHECK_EQ(call_from_external(schedule_child1), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&p));
    CHECK_OK(ABT_thread_free(&child1));
    CHECK_OK(ABT_thread_free(&child2));
    CHECK_OK(ABT_task_free(&child_task));
    stop_es();
    BB_TEST_END();
}
