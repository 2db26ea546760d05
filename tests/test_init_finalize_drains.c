/* ABT_finalize runs every work unit still waiting in the primary ES's pool
 * before it returns, including units that yield and units created by those
 * units while finalize is in progress. */
#include "bb_test.h"

#define N 200

static ABT_pool main_pool;
static int ult_done, task_done, child_done;

static void child(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    child_done++;
}

static void ult_fn(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        ABT_thread_yield();
    /* Spawn more work while finalize is draining the pool. */
    if (ABT_thread_create(main_pool, child, NULL, ABT_THREAD_ATTR_NULL, NULL) != ABT_SUCCESS)
        return;
    ult_done++;
}

static void task_fn(void *arg)
{
    (void)arg;
    task_done++;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_self_get_xstream(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(main_pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, NULL));
        CHECK_OK(ABT_task_create(main_pool, task_fn, NULL, NULL));
    }
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(main_pool, &size));
    CHECK_EQ(size, 2 * N);
    /* Nothing ran yet: the primary ULT never yielded. */
    CHECK_EQ(ult_done + task_done, 0);

    CHECK_OK(ABT_finalize());
    CHECK_EQ(ult_done, N);
    CHECK_EQ(task_done, N);
    CHECK_EQ(child_done, N);
    BB_TEST_END();
}
