/* An ABT_unit that names no work unit (low bits clear, as a user pool's
 * units are, but never made by any pool) is refused with ABT_ERR_INV_UNIT
 * ("unknown" in REFERENCE.md) by ABT_pool_push, ABT_pool_remove,
 * ABT_unit_get_thread (*thread left NULL), ABT_unit_set_associated_pool
 * and ABT_xstream_run_unit (from the primary ULT); each changes nothing: the
 * pool stays as it was and its one real unit still runs. The checks that
 * come before (INV_POOL, INV_UNIT for NULL) win over it. */
#include "bb_test.h"

#define UNKNOWN_UNIT ((ABT_unit)(uintptr_t)0x7770)

static int ran;

static void note_run(void *arg)
{
    (void)arg;
    ran++;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool main_pool = bb_test_main_pool();
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, note_run, NULL, ABT_THREAD_ATTR_NULL, &t));

    CHECK_ERR(ABT_pool_push(pool, UNKNOWN_UNIT), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_pool_push(ABT_POOL_NULL, UNKNOWN_UNIT), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_remove(pool, UNKNOWN_UNIT), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_pool_remove(pool, ABT_UNIT_NULL), ABT_ERR_INV_UNIT);
    ABT_thread got = (ABT_thread)(void *)0x10;
    CHECK_ERR(ABT_unit_get_thread(UNKNOWN_UNIT, &got), ABT_ERR_INV_UNIT);
    CHECK(got == ABT_THREAD_NULL);
    CHECK_ERR(ABT_unit_set_associated_pool(UNKNOWN_UNIT, pool), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_unit_set_associated_pool(UNKNOWN_UNIT, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_xstream_run_unit(UNKNOWN_UNIT, pool), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_xstream_run_unit(UNKNOWN_UNIT, ABT_POOL_NULL), ABT_ERR_INV_POOL);

    /* Nothing changed: the pool holds its one unit, which has not run. */
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 1);
    CHECK_EQ(ran, 0);
    ABT_unit u = ABT_UNIT_NULL, want = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t, &want));
    CHECK_OK(ABT_pool_pop(pool, &u));
    CHECK(u == want);
    CHECK_OK(ABT_pool_push(main_pool, u));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 1);

    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
