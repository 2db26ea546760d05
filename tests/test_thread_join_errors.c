/* join/free refuse invalid targets with ABT_ERR_INV_THREAD: a NULL handle
 * (ABT_THREAD_NULL or ABT_TASK_NULL), the caller itself, and the primary
 * ULT - whether the caller is the primary ULT, another ULT or a tasklet.
 * A refused free leaves the handle untouched. */
#include "bb_test.h"

static ABT_thread primary;
static int r_join_self = -1, r_free_self = -1, r_join_primary = -1, r_free_primary = -1;
static int t_join_self = -1, t_free_self = -1, t_join_primary = -1, t_task_join_self = -1,
           t_task_free_self = -1, t_task_join_primary = -1;
static int self_kept;

static void ult_fn(void *arg)
{
    (void)arg;
    ABT_thread self = ABT_THREAD_NULL;
    ABT_self_get_thread(&self);
    r_join_self = ABT_thread_join(self);
    ABT_thread copy = self;
    r_free_self = ABT_thread_free(&copy);
    self_kept = copy == self;
    r_join_primary = ABT_thread_join(primary);
    copy = primary;
    r_free_primary = ABT_thread_free(&copy);
}

static void task_fn(void *arg)
{
    (void)arg;
    ABT_thread self = ABT_THREAD_NULL;
    ABT_self_get_thread(&self);
    t_join_self = ABT_thread_join(self);
    ABT_thread copy = self;
    t_free_self = ABT_thread_free(&copy);
    t_join_primary = ABT_thread_join(primary);
    t_task_join_self = ABT_task_join(self);
    copy = self;
    t_task_free_self = ABT_task_free(&copy);
    t_task_join_primary = ABT_task_join(primary);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_thread_self(&primary));

    CHECK_ERR(ABT_thread_join(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_join(ABT_TASK_NULL), ABT_ERR_INV_THREAD);
    ABT_thread null_t = ABT_THREAD_NULL;
    CHECK_ERR(ABT_thread_free(&null_t), ABT_ERR_INV_THREAD);

    /* The primary ULT joining/freeing itself. */
    CHECK_ERR(ABT_thread_join(primary), ABT_ERR_INV_THREAD);
    ABT_thread copy = primary;
    CHECK_ERR(ABT_thread_free(&copy), ABT_ERR_INV_THREAD);
    CHECK(copy == primary);

    ABT_thread ult;
    CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &ult));
    CHECK_OK(ABT_thread_free(&ult));
    CHECK_EQ(r_join_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_free_self, ABT_ERR_INV_THREAD);
    CHECK(self_kept);
    CHECK_EQ(r_join_primary, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_free_primary, ABT_ERR_INV_THREAD);

    ABT_task task;
    CHECK_OK(ABT_task_create(pool, task_fn, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(t_join_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(t_free_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(t_join_primary, ABT_ERR_INV_THREAD);
    CHECK_EQ(t_task_join_self, ABT_ERR_INV_TASK);
    CHECK_EQ(t_task_free_self, ABT_ERR_INV_TASK);
    CHECK_EQ(t_task_join_primary, ABT_ERR_INV_TASK);

    /* The primary ULT still works after all the refusals. */
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(primary, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_RUNNING);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
