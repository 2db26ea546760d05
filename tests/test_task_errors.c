/* The ABT_task_* wrappers report a bad unit handle as ABT_ERR_INV_TASK (the
 * rewrite of ABT_ERR_INV_THREAD), while other codes pass through: NULL pool
 * -> INV_POOL, NULL ES -> INV_XSTREAM. Failed creation clears the output.
 * Joining/freeing the caller itself or the primary ULT is INV_TASK. The
 * ABT_task_is_unnamed macro is ABT_thread_is_unnamed, hence INV_THREAD. */
#include "bb_test.h"

static ABT_thread primary;
static int r_join_self = -1, r_free_self = -1, r_join_primary = -1, r_free_primary = -1,
           r_cancel_primary = -1;

static void body(void *arg)
{
    (void)arg;
}

static void self_abuser(void *arg)
{
    (void)arg;
    ABT_task self;
    ABT_self_get_task(&self);
    r_join_self = ABT_task_join(self);
    ABT_task copy = self;
    r_free_self = ABT_task_free(&copy);
    r_join_primary = ABT_task_join(primary);
    copy = primary;
    r_free_primary = ABT_task_free(&copy);
    r_cancel_primary = ABT_task_cancel(primary);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_thread_self(&primary));

    ABT_task t = (ABT_task)(intptr_t)0x10;
    CHECK_ERR(ABT_task_create(ABT_POOL_NULL, body, NULL, &t), ABT_ERR_INV_POOL);
    CHECK(t == ABT_TASK_NULL);
    t = (ABT_task)(intptr_t)0x10;
    CHECK_ERR(ABT_task_create_on_xstream(ABT_XSTREAM_NULL, body, NULL, &t),
              ABT_ERR_INV_XSTREAM);
    CHECK(t == ABT_TASK_NULL);

    ABT_task null_t = ABT_TASK_NULL;
    ABT_xstream xs;
    ABT_task_state st;
    ABT_pool pool;
    int id;
    ABT_bool b;
    uint64_t uid;
    void *arg;
    CHECK_ERR(ABT_task_free(&null_t), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_join(ABT_TASK_NULL), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_cancel(ABT_TASK_NULL), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_revive(pool0, body, NULL, &null_t), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_xstream(ABT_TASK_NULL, &xs), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_state(ABT_TASK_NULL, &st), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_last_pool(ABT_TASK_NULL, &pool), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_last_pool_id(ABT_TASK_NULL, &id), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_set_migratable(ABT_TASK_NULL, ABT_TRUE), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_is_migratable(ABT_TASK_NULL, &b), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_id(ABT_TASK_NULL, &uid), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_get_arg(ABT_TASK_NULL, &arg), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_is_unnamed(ABT_TASK_NULL, &b), ABT_ERR_INV_THREAD);
    /* ABT_THREAD_NULL is the same invalid handle. */
    CHECK_ERR(ABT_task_join(ABT_THREAD_NULL), ABT_ERR_INV_TASK);

    /* The primary ULT from itself through the task API. */
    CHECK_ERR(ABT_task_join(primary), ABT_ERR_INV_TASK);
    ABT_task copy = primary;
    CHECK_ERR(ABT_task_free(&copy), ABT_ERR_INV_TASK);
    CHECK(copy == primary);

    ABT_task abuser;
    CHECK_OK(ABT_task_create(pool0, self_abuser, NULL, &abuser));
    CHECK_OK(ABT_task_free(&abuser));
    CHECK_EQ(r_join_self, ABT_ERR_INV_TASK);
    CHECK_EQ(r_free_self, ABT_ERR_INV_TASK);
    CHECK_EQ(r_join_primary, ABT_ERR_INV_TASK);
    CHECK_EQ(r_free_primary, ABT_ERR_INV_TASK);
    CHECK_EQ(r_cancel_primary, ABT_ERR_INV_TASK);

    /* A tasklet that has not terminated cannot be revived. */
    CHECK_OK(ABT_task_create(pool0, body, NULL, &t));
    CHECK_ERR(ABT_task_revive(pool0, body, NULL, &t), ABT_ERR_INV_TASK);
    CHECK_OK(ABT_task_free(&t));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
