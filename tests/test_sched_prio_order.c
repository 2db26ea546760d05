/* ABT_SCHED_PRIO: pool 0 has the highest priority. With 3 pools filled
 * before the ES starts (filled in reverse order), every unit of pool 0 runs
 * before any of pool 1, which run before pool 2, each pool in FIFO order.
 * The scheduler rescans from pool 0 after every unit: a unit of pool 2 that
 * creates work in pools 1 and 0 sees that work run before the rest of pool 2.
 * Done with the default PRIO pools and with the caller's pools. */
#include "bb_test.h"
#include <stdatomic.h>

#define K 8
#define TOTAL (3 * K + 2)

static int order[TOTAL + 8];
static atomic_int norder;
static ABT_pool the_pools[3];

static void record(long code)
{
    int i = atomic_fetch_add(&norder, 1);
    if (i < TOTAL + 8)
        order[i] = (int)code;
}

static void work(void *arg)
{
    record((long)arg);
}

/* The first unit of pool 2: adds one unit to pool 1 and one to pool 0. */
static void spawner(void *arg)
{
    record((long)arg);
    ABT_thread_create(the_pools[1], work, (void *)(long)(100 + 1), ABT_THREAD_ATTR_NULL, NULL);
    ABT_thread_create(the_pools[0], work, (void *)(long)(100 + 0), ABT_THREAD_ATTR_NULL, NULL);
}

static void one_round(int own_pools)
{
    atomic_store(&norder, 0);
    ABT_sched s;
    ABT_pool user[3];
    if (own_pools) {
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                           &user[i]));
        CHECK_OK(ABT_sched_create_basic(ABT_SCHED_PRIO, 3, user, ABT_SCHED_CONFIG_NULL, &s));
    } else {
        CHECK_OK(ABT_sched_create_basic(ABT_SCHED_PRIO, 0, NULL, ABT_SCHED_CONFIG_NULL, &s));
    }
    int n = 0;
    CHECK_OK(ABT_sched_get_num_pools(s, &n));
    CHECK_EQ(n, 3);
    CHECK_OK(ABT_sched_get_pools(s, 3, 0, the_pools));
    if (own_pools)
        for (int i = 0; i < 3; i++)
            CHECK(the_pools[i] == user[i]);

    /* Fill pool 2 first, then 1, then 0. Code = pool * 10 + position. */
    for (int p = 2; p >= 0; p--) {
        for (long k = 0; k < K; k++) {
            long code = p * 10 + k;
            void (*fn)(void *) = (p == 2 && k == 0) ? spawner : work;
            CHECK_OK(ABT_thread_create(the_pools[p], fn, (void *)code, ABT_THREAD_ATTR_NULL,
                                       NULL));
        }
    }
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(s, &es));
    CHECK_OK(ABT_xstream_free(&es)); /* join: runs everything first */
    CHECK_EQ(atomic_load(&norder), TOTAL);

    int expect[TOTAL], e = 0;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < K; k++)
            expect[e++] = p * 10 + k;
    expect[e++] = 20;  /* the spawner */
    expect[e++] = 100; /* its pool-0 unit */
    expect[e++] = 101; /* its pool-1 unit */
    for (int k = 1; k < K; k++)
        expect[e++] = 20 + k;
    for (int i = 0; i < TOTAL; i++)
        if (order[i] != expect[i]) {
            BB_FAIL_AT("own_pools=%d: position %d ran %d, expected %d", own_pools, i, order[i],
                       expect[i]);
            break;
        }
    if (own_pools)
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_pool_free(&user[i]));
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    one_round(0);
    one_round(1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
