/* ABT_self_set_associated_pool: a ULT on ES1 re-associates itself with ES2's
 * pool; it does not move until it yields, then continues on ES2 and
 * get_last_pool reports the new pool. A tasklet may call it too. Errors:
 * external caller -> INV_XSTREAM (checked before the pool); NULL pool ->
 * INV_POOL. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1, pool2;
static int rank_before = -1, rank_still = -1, rank_after = -1;
static ABT_pool last_after;
static int r_set = -1, r_null = -1, r_task = -1, r_ext = -1, r_ext_null = -1;

static void mover(void *arg)
{
    (void)arg;
    ABT_self_get_xstream_rank(&rank_before);
    r_null = ABT_self_set_associated_pool(ABT_POOL_NULL);
    r_set = ABT_self_set_associated_pool(pool2);
    ABT_self_get_xstream_rank(&rank_still);
    ABT_self_yield();
    ABT_self_get_xstream_rank(&rank_after);
    ABT_self_get_last_pool(&last_after);
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task = ABT_self_set_associated_pool(pool1);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_set_associated_pool(pool1);
    r_ext_null = ABT_self_set_associated_pool(ABT_POOL_NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es1, es2;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));
    int r1, r2;
    CHECK_OK(ABT_xstream_get_rank(es1, &r1));
    CHECK_OK(ABT_xstream_get_rank(es2, &r2));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool1, mover, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(r_null, ABT_ERR_INV_POOL);
    CHECK_OK(r_set);
    CHECK_EQ(rank_before, r1);
    CHECK_EQ(rank_still, r1);
    CHECK_EQ(rank_after, r2);
    CHECK(last_after == pool2);

    ABT_task tk;
    CHECK_OK(ABT_task_create(pool2, task_fn, NULL, &tk));
    CHECK_OK(ABT_task_join(tk));
    CHECK_OK(r_task);
    ABT_pool last;
    CHECK_OK(ABT_task_get_last_pool(tk, &last));
    CHECK(last == pool1);
    CHECK_OK(ABT_task_free(&tk));

    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(r_ext_null, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
