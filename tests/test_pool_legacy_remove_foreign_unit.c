/* ABT_pool_remove on a legacy user pool with a unit that is not this pool's
 * own (REFERENCE.md: ABT_ERR_POOL, "not in this pool"): the runtime answers
 * itself and never hands the pool's p_remove a unit the pool did not make
 * (its code would take foreign memory for one of its units). Checked with
 * a unit of a built-in pool and a unit of another legacy pool; a unit of
 * the pool itself still reaches p_remove and is removed. */
#include "pool_user_util.h"

static void work(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool main_pool = bb_test_main_pool();
    up_state sa, sb;
    up_state_init(&sa);
    up_state_init(&sb);
    ABT_pool_def def = up_legacy_def(ABT_POOL_ACCESS_MPMC, 0);
    ABT_pool a, b;
    ABT_pool_config cfg = up_config(&sa, 0);
    CHECK_OK(ABT_pool_create((ABT_pool_user_def)&def, cfg, &a));
    CHECK_OK(ABT_pool_config_free(&cfg));
    cfg = up_config(&sb, 0);
    CHECK_OK(ABT_pool_create((ABT_pool_user_def)&def, cfg, &b));
    CHECK_OK(ABT_pool_config_free(&cfg));
    ABT_pool parking;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parking));

    /* A unit of a built-in pool. */
    ABT_thread t1;
    CHECK_OK(ABT_thread_create(parking, work, NULL, ABT_THREAD_ATTR_NULL, &t1));
    ABT_unit u1;
    CHECK_OK(ABT_pool_pop(parking, &u1));
    CHECK(u1 != ABT_UNIT_NULL);
    int before = atomic_load(&sa.n_remove);
    CHECK_ERR(ABT_pool_remove(a, u1), ABT_ERR_POOL);
    CHECK_EQ(atomic_load(&sa.n_remove), before);
    CHECK_OK(ABT_pool_push(main_pool, u1));

    /* A unit of another legacy pool, waiting there. */
    ABT_thread t2;
    CHECK_OK(ABT_thread_create(b, work, NULL, ABT_THREAD_ATTR_NULL, &t2));
    ABT_unit u2;
    CHECK_OK(ABT_pool_pop(b, &u2));
    CHECK_OK(ABT_pool_push(b, u2));
    CHECK_ERR(ABT_pool_remove(a, u2), ABT_ERR_POOL);
    CHECK_EQ(atomic_load(&sa.n_remove), before);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(b, &size));
    CHECK_EQ(size, 1);
    /* Its own pool removes it. */
    CHECK_OK(ABT_pool_remove(b, u2));
    CHECK_OK(ABT_pool_get_size(b, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_pool_push(main_pool, u2));

    CHECK_OK(ABT_thread_free(&t1));
    CHECK_OK(ABT_thread_free(&t2));
    CHECK_OK(ABT_pool_free(&parking));
    CHECK_OK(ABT_pool_free(&a));
    CHECK_OK(ABT_pool_free(&b));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
