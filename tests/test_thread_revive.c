/* ABT_thread_revive reuses a terminated named ULT with a new function and
 * argument, pushes it to the given pool (possibly on another ES) and it runs
 * there; the handle is unchanged. Errors: NULL handle -> INV_THREAD, a ULT
 * that has not terminated -> INV_THREAD, NULL pool -> INV_POOL. */
#include "bb_test.h"

static int log_a, log_b;
static int rank_b = -1;
static int release;

static void fa(void *arg)
{
    log_a += (int)(intptr_t)arg;
}

static void fb(void *arg)
{
    log_b += (int)(intptr_t)arg;
    ABT_self_get_xstream_rank(&rank_b);
}

static void waiter(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
        ABT_thread_yield();
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool0, fa, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(log_a, 1);
    ABT_thread before = t;

    /* Revive onto the secondary ES with another function and argument. */
    CHECK_OK(ABT_thread_revive(pool1, fb, (void *)(intptr_t)5, &t));
    CHECK(t == before);
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(log_a, 1);
    CHECK_EQ(log_b, 5);
    CHECK_EQ(rank_b, 1);
    void (*f)(void *) = NULL;
    CHECK_OK(ABT_thread_get_thread_func(t, &f));
    CHECK(f == fb);
    void *arg = NULL;
    CHECK_OK(ABT_thread_get_arg(t, &arg));
    CHECK(arg == (void *)(intptr_t)5);
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &last));
    CHECK(last == pool1);

    /* Many revivals of the same handle. */
    for (int i = 0; i < 100; i++) {
        CHECK_OK(ABT_thread_revive((i & 1) ? pool0 : pool1, fa, (void *)(intptr_t)2, &t));
        CHECK_OK(ABT_thread_join(t));
    }
    CHECK_EQ(log_a, 201);

    /* Errors. */
    ABT_thread null_t = ABT_THREAD_NULL;
    CHECK_ERR(ABT_thread_revive(pool0, fa, NULL, &null_t), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_revive(ABT_POOL_NULL, fa, NULL, &t), ABT_ERR_INV_POOL);
    ABT_thread live;
    CHECK_OK(ABT_thread_create(pool1, waiter, NULL, ABT_THREAD_ATTR_NULL, &live));
    CHECK_ERR(ABT_thread_revive(pool1, fa, NULL, &live), ABT_ERR_INV_THREAD);
    /* The NULL-handle check comes before the pool check. */
    CHECK_ERR(ABT_thread_revive(ABT_POOL_NULL, fa, NULL, &null_t), ABT_ERR_INV_THREAD);
    __atomic_store_n(&release, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_thread_free(&live));
    CHECK_EQ(log_a, 201); /* the refused revivals did not run fa */

    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
