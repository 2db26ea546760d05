/* ABT_pool_create_basic with each of the five access kinds: get_access
 * reports it, IDs are distinct and increasing; invalid access wins over an
 * invalid kind (INV_POOL_ACCESS), invalid kinds are INV_POOL_KIND (FIFO_WAIT
 * and RANDWS are not supported yet), the output is cleared on error; free
 * clears the handle; NULL handles are INV_POOL. */
#include "bb_test.h"

#define POISON ((ABT_pool)(void *)0x77)

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    const ABT_pool_access kinds[5] = {ABT_POOL_ACCESS_PRIV, ABT_POOL_ACCESS_SPSC,
                                      ABT_POOL_ACCESS_MPSC, ABT_POOL_ACCESS_SPMC,
                                      ABT_POOL_ACCESS_MPMC};
    ABT_pool pools[10];
    int last_id = 0; /* the primary pool has ID 0 */
    for (int i = 0; i < 10; i++) {
        pools[i] = POISON;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, kinds[i % 5],
                                       i < 5 ? ABT_FALSE : ABT_TRUE, &pools[i]));
        CHECK(pools[i] != ABT_POOL_NULL && pools[i] != POISON);
        ABT_pool_access a = (ABT_pool_access)-1;
        CHECK_OK(ABT_pool_get_access(pools[i], &a));
        CHECK_EQ(a, kinds[i % 5]);
        int id = -1;
        CHECK_OK(ABT_pool_get_id(pools[i], &id));
        CHECK(id > last_id);
        last_id = id;
        size_t size = 99;
        CHECK_OK(ABT_pool_get_size(pools[i], &size));
        CHECK_EQ(size, 0);
        CHECK_OK(ABT_pool_get_total_size(pools[i], &size));
        CHECK_EQ(size, 0);
        ABT_unit u = (ABT_unit)(void *)0x1;
        CHECK_OK(ABT_pool_pop(pools[i], &u));
        CHECK(u == ABT_UNIT_NULL);
    }
    for (int i = 0; i < 10; i++) {
        CHECK_OK(ABT_pool_free(&pools[i])); /* automatic or not: never attached */
        CHECK(pools[i] == ABT_POOL_NULL);
    }

    ABT_pool p = POISON;
    CHECK_ERR(ABT_pool_create_basic(ABT_POOL_FIFO, (ABT_pool_access)42, ABT_FALSE, &p),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK(p == ABT_POOL_NULL);
    p = POISON;
    CHECK_ERR(ABT_pool_create_basic((ABT_pool_kind)42, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p),
              ABT_ERR_INV_POOL_KIND);
    CHECK(p == ABT_POOL_NULL);
    p = POISON;
    CHECK_ERR(ABT_pool_create_basic((ABT_pool_kind)42, (ABT_pool_access)42, ABT_FALSE, &p),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK(p == ABT_POOL_NULL);
    CHECK_ERR(ABT_pool_create_basic(ABT_POOL_FIFO, (ABT_pool_access)-1, ABT_FALSE, &p),
              ABT_ERR_INV_POOL_ACCESS);
    /* Every predefined kind exists with every access kind. */
    const ABT_pool_kind all_kinds[3] = {ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS};
    for (int k = 0; k < 3; k++) {
        for (int acc = ABT_POOL_ACCESS_PRIV; acc <= ABT_POOL_ACCESS_MPMC; acc++) {
            CHECK_OK(ABT_pool_create_basic(all_kinds[k], (ABT_pool_access)acc, ABT_FALSE, &p));
            ABT_pool_access got;
            CHECK_OK(ABT_pool_get_access(p, &got));
            CHECK_EQ(got, acc);
            CHECK_OK(ABT_pool_free(&p));
        }
    }

    ABT_pool null_pool = ABT_POOL_NULL;
    CHECK_ERR(ABT_pool_free(&null_pool), ABT_ERR_INV_POOL);
    size_t size;
    CHECK_ERR(ABT_pool_get_size(ABT_POOL_NULL, &size), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_total_size(ABT_POOL_NULL, &size), ABT_ERR_INV_POOL);
    ABT_pool_access a;
    CHECK_ERR(ABT_pool_get_access(ABT_POOL_NULL, &a), ABT_ERR_INV_POOL);
    int id;
    CHECK_ERR(ABT_pool_get_id(ABT_POOL_NULL, &id), ABT_ERR_INV_POOL);
    ABT_unit u;
    CHECK_ERR(ABT_pool_pop(ABT_POOL_NULL, &u), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push(ABT_POOL_NULL, ABT_UNIT_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_remove(ABT_POOL_NULL, ABT_UNIT_NULL), ABT_ERR_INV_POOL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
