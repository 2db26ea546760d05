/* Units the program never frees go with the runtime at the last
 * ABT_finalize, with their key values, "without destructors" (REFERENCE,
 * section 1), while the primary ULT's values are destroyed there (section
 * 17). A ULT and a tasklet that ended but were never freed, and a ULT left
 * waiting in a pool nobody serves: their destructors never run. Mutation
 * testing (key.c, bb_unit_drop_keys) found nothing checking it. */
#include "bb_test.h"

static int destroyed_unit, destroyed_primary;
static int v_unit, v_primary;
static ABT_key key;

static void dtor(void *v)
{
    if (v == &v_unit)
        destroyed_unit++;
    else if (v == &v_primary)
        destroyed_primary++;
}

static void body(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_key_set(key, &v_unit));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor, &key));
    ABT_thread ult, task, waiting;
    CHECK_OK(ABT_thread_create(bb_test_main_pool(), body, NULL, ABT_THREAD_ATTR_NULL, &ult));
    CHECK_OK(ABT_task_create(bb_test_main_pool(), body, NULL, &task));
    CHECK_OK(ABT_thread_join(ult));
    CHECK_OK(ABT_thread_join(task));
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    CHECK_OK(ABT_thread_create(idle, body, NULL, ABT_THREAD_ATTR_NULL, &waiting));
    CHECK_OK(ABT_thread_set_specific(waiting, key, &v_unit));
    CHECK_OK(ABT_key_set(key, &v_primary));
    CHECK_OK(ABT_finalize()); /* none of the three is freed */
    CHECK_EQ(destroyed_unit, 0);
    CHECK_EQ(destroyed_primary, 1);
    BB_TEST_END();
}
