/* ABT_pool_get_total_size counts suspended (blocked) ULTs associated with
 * the pool, get_size does not; once resumed the ULT is counted as ready
 * again, and when it finishes neither counts it. */
#include "bb_test.h"

static int phase;

static void sleeper(void *arg)
{
    (void)arg;
    phase = 1;
    ABT_self_suspend();
    phase = 2;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    ABT_thread t[3];
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_create(main_pool, sleeper, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    size_t size = 0, total = 0;
    CHECK_OK(ABT_pool_get_size(main_pool, &size));
    CHECK_OK(ABT_pool_get_total_size(main_pool, &total));
    CHECK_EQ(size, 3);
    CHECK_EQ(total, 3);

    /* Let all three run to their suspension point. */
    for (int i = 0; i < 3; i++) {
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        while (st != ABT_THREAD_STATE_BLOCKED) {
            CHECK_OK(ABT_thread_yield());
            CHECK_OK(ABT_thread_get_state(t[i], &st));
        }
    }
    CHECK_OK(ABT_pool_get_size(main_pool, &size));
    CHECK_OK(ABT_pool_get_total_size(main_pool, &total));
    CHECK_EQ(size, 0);
    CHECK_EQ(total, 3);

    CHECK_OK(ABT_thread_resume(t[0]));
    CHECK_OK(ABT_pool_get_size(main_pool, &size));
    CHECK_OK(ABT_pool_get_total_size(main_pool, &total));
    CHECK_EQ(size, 1);
    CHECK_EQ(total, 3);

    CHECK_OK(ABT_thread_join(t[0]));
    CHECK_OK(ABT_pool_get_size(main_pool, &size));
    CHECK_OK(ABT_pool_get_total_size(main_pool, &total));
    CHECK_EQ(size, 0);
    CHECK_EQ(total, 2);

    CHECK_OK(ABT_thread_resume(t[1]));
    CHECK_OK(ABT_thread_resume(t[2]));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_pool_get_total_size(main_pool, &total));
    CHECK_EQ(total, 0);
    CHECK_EQ(phase, 2);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
