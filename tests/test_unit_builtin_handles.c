/* ABT_unit handles of built-in pools and the legacy unit-based pool calls:
 * ABT_thread_get_unit / ABT_unit_get_thread round trip for ULTs and
 * tasklets, from an ES and from an external thread; ABT_self_get_unit agrees
 * with ABT_thread_get_unit; ABT_pool_pop returns the units in FIFO order (and
 * ABT_UNIT_NULL when empty), ABT_pool_push takes them back (into another pool
 * too, which re-associates), ABT_pool_remove takes one out of the middle and
 * fails with ABT_ERR_POOL for a unit not in that pool;
 * ABT_unit_set_associated_pool re-associates. Errors: NULL unit -> INV_UNIT,
 * NULL pool -> INV_POOL, NULL thread -> INV_THREAD. */
#include "bb_test.h"
#include <pthread.h>

#define N 5

static int ran;
static ABT_unit self_unit[N];
static ABT_thread self_thread[N];

static void work(void *arg)
{
    long i = (long)arg;
    ran++;
    if (i >= 0 && i < N) {
        ABT_self_get_unit(&self_unit[i]);
        ABT_self_get_thread(&self_thread[i]);
    }
}

static ABT_unit ext_unit;
static ABT_thread ext_thread;
static int ext_ret = -1;

static void *ext_get_thread(void *arg)
{
    (void)arg;
    ext_ret = ABT_unit_get_thread(ext_unit, &ext_thread);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    ABT_pool pool, other;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &other));

    /* 0..N-2 ULTs, N-1 a tasklet. */
    ABT_thread t[N];
    ABT_unit u[N];
    for (long i = 0; i < N - 1; i++)
        CHECK_OK(ABT_thread_create(pool, work, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
    CHECK_OK(ABT_task_create(pool, work, (void *)(long)(N - 1), &t[N - 1]));
    for (int i = 0; i < N; i++) {
        u[i] = ABT_UNIT_NULL;
        CHECK_OK(ABT_thread_get_unit(t[i], &u[i]));
        CHECK(u[i] != ABT_UNIT_NULL);
        ABT_thread back = ABT_THREAD_NULL;
        CHECK_OK(ABT_unit_get_thread(u[i], &back));
        CHECK(back == t[i]);
        for (int j = 0; j < i; j++)
            CHECK(u[i] != u[j]);
    }

    /* From an external thread. */
    ext_unit = u[2];
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_get_thread, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_SUCCESS);
    CHECK(ext_thread == t[2]);

    /* remove #1 and #3; #3 again is not in the pool; nor is #0 in `other`. */
    CHECK_OK(ABT_pool_remove(pool, u[1]));
    CHECK_OK(ABT_pool_remove(pool, u[3]));
    CHECK_ERR(ABT_pool_remove(pool, u[3]), ABT_ERR_POOL);
    CHECK_ERR(ABT_pool_remove(other, u[0]), ABT_ERR_POOL);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, N - 2);
    /* The association is not changed by remove. */
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t[1], &last));
    CHECK(last == pool);

    /* pop: 0 2 4; then empty. */
    const int expect[3] = {0, 2, 4};
    for (int i = 0; i < 3; i++) {
        ABT_unit x = ABT_UNIT_NULL;
        CHECK_OK(ABT_pool_pop(pool, &x));
        CHECK(x == u[expect[i]]);
    }
    ABT_unit x = u[0];
    CHECK_OK(ABT_pool_pop(pool, &x));
    CHECK(x == ABT_UNIT_NULL);

    /* push to `other` re-associates; the built-in unit stays valid. */
    CHECK_OK(ABT_pool_push(other, u[4]));
    CHECK_OK(ABT_pool_push(other, u[1]));
    CHECK_OK(ABT_thread_get_last_pool(t[4], &last));
    CHECK(last == other);
    ABT_unit nu = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t[4], &nu));
    ABT_thread back = ABT_THREAD_NULL;
    CHECK_OK(ABT_unit_get_thread(nu, &back));
    CHECK(back == t[4]);
    CHECK_OK(ABT_pool_pop(other, &x));
    CHECK(x == nu);
    CHECK_OK(ABT_pool_pop(other, &x));
    CHECK_OK(ABT_unit_get_thread(x, &back));
    CHECK(back == t[1]);

    /* ABT_unit_set_associated_pool really re-associates. */
    CHECK_OK(ABT_thread_get_unit(t[0], &x));
    CHECK_OK(ABT_unit_set_associated_pool(x, other));
    CHECK_OK(ABT_thread_get_last_pool(t[0], &last));
    CHECK(last == other);
    CHECK_OK(ABT_unit_set_associated_pool(x, pool));
    CHECK_OK(ABT_thread_get_last_pool(t[0], &last));
    CHECK(last == pool);

    /* Errors. */
    ABT_thread th;
    CHECK_ERR(ABT_unit_get_thread(ABT_UNIT_NULL, &th), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_thread_get_unit(ABT_THREAD_NULL, &x), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_pool_push(pool, ABT_UNIT_NULL), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_pool_push(ABT_POOL_NULL, u[0]), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop(ABT_POOL_NULL, &x), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_remove(ABT_POOL_NULL, u[0]), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_remove(pool, ABT_UNIT_NULL), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_unit_set_associated_pool(ABT_UNIT_NULL, pool), ABT_ERR_INV_UNIT);
    CHECK_ERR(ABT_unit_set_associated_pool(u[0], ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 0);

    /* Run all in the primary ES: each sees its own unit as ABT_self_get_unit. */
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_pool_push(main_pool, u[i]));
    for (int i = 0; i < N - 1; i++)
        CHECK_OK(ABT_thread_join(t[i]));
    CHECK_OK(ABT_task_join(t[N - 1]));
    CHECK_EQ(ran, N);
    for (int i = 0; i < N; i++) {
        CHECK(self_thread[i] == t[i]);
        ABT_unit now = ABT_UNIT_NULL;
        CHECK_OK(ABT_thread_get_unit(t[i], &now));
        CHECK(self_unit[i] == now);
    }
    for (int i = 0; i < N - 1; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_task_free(&t[N - 1]));

    /* The primary ULT's own unit maps back to it. */
    ABT_unit mine = ABT_UNIT_NULL;
    ABT_thread me = ABT_THREAD_NULL;
    CHECK_OK(ABT_self_get_unit(&mine));
    CHECK_OK(ABT_self_get_thread(&me));
    CHECK(mine != ABT_UNIT_NULL);
    CHECK_OK(ABT_unit_get_thread(mine, &back));
    CHECK(back == me);

    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_pool_free(&other));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
