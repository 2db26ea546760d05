/* A tasklet made by ABT_task_create_on_xstream is migratable, as one made by
 * ABT_task_create is (Argobots' default; ABT_task_is_migratable), and may
 * move while it waits in its pool. Mutation testing (task.c) found nothing
 * checking the on_xstream one. */
#include "bb_test.h"

static int ran;

static void body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    ABT_task a, b;
    CHECK_OK(ABT_task_create(bb_test_main_pool(), body, NULL, &a));
    CHECK_OK(ABT_task_create_on_xstream(self, body, NULL, &b));
    ABT_bool m = ABT_FALSE;
    CHECK_OK(ABT_task_is_migratable(a, &m));
    CHECK_EQ(m, ABT_TRUE);
    m = ABT_FALSE;
    CHECK_OK(ABT_task_is_migratable(b, &m));
    CHECK_EQ(m, ABT_TRUE);
    /* Not started yet (the primary ULT has not yielded): it moves at once. */
    CHECK_OK(ABT_thread_migrate_to_pool(b, idle));
    ABT_pool p = ABT_POOL_NULL;
    CHECK_OK(ABT_task_get_last_pool(b, &p));
    CHECK(p == idle);
    ABT_thread t;
    while (ABT_pool_pop_thread(idle, &t) == ABT_SUCCESS && t != ABT_THREAD_NULL)
        CHECK_OK(ABT_pool_push_thread(bb_test_main_pool(), t));
    CHECK_OK(ABT_task_free(&a));
    CHECK_OK(ABT_task_free(&b));
    CHECK_EQ(ran, 2);
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
