/* ABT_thread_set_associated_pool changes a popped (pool-less) unit's pool
 * without pushing it: get_last_pool reports the new pool at once, and once
 * pushed there the unit runs on that pool's ES. A yielding ULT goes back to
 * its associated pool, so after re-association it continues on the other ES.
 * Errors: NULL thread -> INV_THREAD (first), NULL pool -> INV_POOL. */
#include "bb_test.h"

static int ranks[4];
static int rank_after_yield = -1;

static void body(void *arg)
{
    int idx = (int)(intptr_t)arg;
    ABT_self_get_xstream_rank(&ranks[idx]);
}

static ABT_pool pool2;

static void mover(void *arg)
{
    (void)arg;
    ABT_thread self;
    ABT_self_get_thread(&self);
    /* Running, hence in no pool: allowed. */
    ABT_thread_set_associated_pool(self, pool2);
    ABT_thread_yield();
    ABT_self_get_xstream_rank(&rank_after_yield);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es1, es2;
    ABT_pool pool1, side;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));
    int r1 = -1, r2 = -1;
    CHECK_OK(ABT_xstream_get_rank(es1, &r1));
    CHECK_OK(ABT_xstream_get_rank(es2, &r2));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(side, body, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_pool_pop(side, &unit));
    CHECK(unit != ABT_UNIT_NULL);
    CHECK_OK(ABT_thread_set_associated_pool(t, pool2));
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &last));
    CHECK(last == pool2);
    size_t n = 99;
    CHECK_OK(ABT_pool_get_size(pool2, &n));
    CHECK_EQ(n, 0); /* not pushed */
    CHECK_OK(ABT_thread_get_unit(t, &unit));
    CHECK_OK(ABT_pool_push(pool2, unit));
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(ranks[0], r2);
    CHECK_OK(ABT_thread_free(&t));

    /* A tasklet can be re-associated the same way. */
    ABT_task tk;
    CHECK_OK(ABT_task_create(side, body, (void *)(intptr_t)1, &tk));
    CHECK_OK(ABT_pool_pop(side, &unit));
    CHECK_OK(ABT_thread_set_associated_pool(tk, pool1));
    CHECK_OK(ABT_thread_get_unit(tk, &unit));
    CHECK_OK(ABT_pool_push(pool1, unit));
    CHECK_OK(ABT_task_join(tk));
    CHECK_EQ(ranks[1], r1);
    CHECK_OK(ABT_task_free(&tk));

    /* Running ULT re-associates itself, then yields over to the other ES. */
    CHECK_OK(ABT_thread_create(pool1, mover, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(rank_after_yield, r2);
    ABT_xstream last_es;
    CHECK_OK(ABT_thread_get_last_xstream(t, &last_es));
    CHECK(last_es == es2);
    CHECK_OK(ABT_thread_free(&t));

    CHECK_ERR(ABT_thread_set_associated_pool(ABT_THREAD_NULL, pool1), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_associated_pool(ABT_THREAD_NULL, ABT_POOL_NULL),
              ABT_ERR_INV_THREAD);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&side));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
