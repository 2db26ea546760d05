/* ABT_pool_push / pop / remove / get_size on an unscheduled pool, for every
 * access kind: FIFO order, pop of an empty pool gives ABT_UNIT_NULL, remove
 * takes a unit out of the middle, NULL units are INV_UNIT; pushing a unit
 * into a scheduled pool associates it with that pool and runs it there; pop
 * works from an external pthread. */
#include "bb_test.h"
#include <pthread.h>

#define N 6

static int order[N], norder;
static ABT_pool ran_pool[N];

static void work(void *arg)
{
    long i = (long)arg;
    ABT_self_get_last_pool(&ran_pool[i]);
    order[norder++] = (int)i;
}

static ABT_pool ext_pool;
static ABT_unit ext_unit = (ABT_unit)(void *)0x1;
static int ext_ret = -1;

static void *ext_pop(void *arg)
{
    (void)arg;
    ext_ret = ABT_pool_pop(ext_pool, &ext_unit);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    for (int access = ABT_POOL_ACCESS_PRIV; access <= ABT_POOL_ACCESS_MPMC; access++) {
        ABT_pool pool;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, (ABT_pool_access)access, ABT_FALSE,
                                       &pool));
        ABT_thread t[N];
        ABT_unit u[N];
        for (long i = 0; i < N; i++) {
            CHECK_OK(ABT_thread_create(pool, work, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
            CHECK_OK(ABT_thread_get_unit(t[i], &u[i]));
        }
        size_t size = 0;
        CHECK_OK(ABT_pool_get_size(pool, &size));
        CHECK_EQ(size, N);
        CHECK_OK(ABT_pool_get_total_size(pool, &size));
        CHECK_EQ(size, N);

        CHECK_ERR(ABT_pool_remove(pool, ABT_UNIT_NULL), ABT_ERR_INV_UNIT);
        CHECK_ERR(ABT_pool_push(pool, ABT_UNIT_NULL), ABT_ERR_INV_UNIT);

        /* Remove #2 and #4, pop #0 and push it back at the tail. */
        CHECK_OK(ABT_pool_remove(pool, u[2]));
        CHECK_OK(ABT_pool_remove(pool, u[4]));
        CHECK_OK(ABT_pool_get_size(pool, &size));
        CHECK_EQ(size, N - 2);
        ABT_unit x = ABT_UNIT_NULL;
        CHECK_OK(ABT_pool_pop(pool, &x));
        CHECK(x == u[0]);
        CHECK_OK(ABT_pool_push(pool, x));
        /* Expected order now: 1 3 5 0; then the removed 2 and 4 at the tail. */
        CHECK_OK(ABT_pool_push(pool, u[2]));
        CHECK_OK(ABT_pool_push(pool, u[4]));
        const int expect[N] = {1, 3, 5, 0, 2, 4};
        ABT_unit popped[N];
        for (int i = 0; i < N; i++) {
            popped[i] = ABT_UNIT_NULL;
            CHECK_OK(ABT_pool_pop(pool, &popped[i]));
            CHECK(popped[i] == u[expect[i]]);
        }
        x = (ABT_unit)(void *)0x1;
        CHECK_OK(ABT_pool_pop(pool, &x));
        CHECK(x == ABT_UNIT_NULL);
        CHECK_OK(ABT_pool_get_size(pool, &size));
        CHECK_EQ(size, 0);

        /* Run them on the primary ES, in the popped order. */
        norder = 0;
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_pool_push(main_pool, popped[i]));
        /* The scheduler runs them (a join could run its joinee first). */
        CHECK_OK(ABT_thread_yield());
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(norder, N);
        for (int i = 0; i < N; i++) {
            CHECK_EQ(order[i], expect[i]);
            CHECK(ran_pool[i] == main_pool);
        }
        CHECK_OK(ABT_pool_free(&pool));
    }

    /* Pop from an external thread. */
    norder = 0;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &ext_pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(ext_pool, work, (void *)0, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit tu;
    CHECK_OK(ABT_thread_get_unit(t, &tu));
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_pop, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_SUCCESS);
    CHECK(ext_unit == tu);
    CHECK_OK(ABT_pool_push(main_pool, tu));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_pool_free(&ext_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
