/* Pool queries on built-in pools of every kind: ABT_pool_is_empty, get_size
 * and get_total_size follow pushes and pops; ABT_pool_get_data is NULL until
 * set_data (also for the pools of a predefined scheduler, whose internal
 * state must not show through), and set_data(NULL) clears it; ABT_pool_get_id
 * differs between pools and matches ABT_thread_get_last_pool_id; queries work
 * from an external pthread. Every ABT_pool_* routine given ABT_POOL_NULL
 * returns ABT_ERR_INV_POOL. */
#include "bb_test.h"
#include <pthread.h>
#include <time.h>

/* The ABT_get_wtime clock (CLOCK_REALTIME in bobbin, as in Argobots); the
 * library does not export ABT_get_wtime itself yet. */
static double wtime_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void noop(void *arg)
{
    (void)arg;
}

static void print_unit(void *arg, ABT_unit u)
{
    (void)arg;
    (void)u;
}

static void print_thread(void *arg, ABT_thread t)
{
    (void)arg;
    (void)t;
}

static ABT_pool ext_pool;
static int ext_ret[4] = {-1, -1, -1, -1};
static ABT_bool ext_empty = ABT_TRUE;
static size_t ext_size, ext_total;
static int ext_id = -1;

static void *ext_query(void *arg)
{
    (void)arg;
    ext_ret[0] = ABT_pool_is_empty(ext_pool, &ext_empty);
    ext_ret[1] = ABT_pool_get_size(ext_pool, &ext_size);
    ext_ret[2] = ABT_pool_get_total_size(ext_pool, &ext_total);
    ext_ret[3] = ABT_pool_get_id(ext_pool, &ext_id);
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

    /* Pools of the primary ES's predefined scheduler: data starts NULL. */
    void *data = (void *)0x10;
    CHECK_OK(ABT_pool_get_data(main_pool, &data));
    CHECK(data == NULL);

    enum { NPOOLS = 6 };
    ABT_pool pools[NPOOLS];
    int ids[NPOOLS];
    const ABT_pool_kind kinds[3] = {ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS};
    for (int i = 0; i < NPOOLS; i++) {
        ABT_pool_access access = i % 2 ? ABT_POOL_ACCESS_MPMC : ABT_POOL_ACCESS_PRIV;
        CHECK_OK(ABT_pool_create_basic(kinds[i / 2], access, ABT_FALSE, &pools[i]));
        ABT_pool p = pools[i];
        CHECK_OK(ABT_pool_get_id(p, &ids[i]));
        CHECK(ids[i] >= 0);
        for (int j = 0; j < i; j++)
            CHECK_NE(ids[i], ids[j]);

        ABT_bool empty = ABT_FALSE;
        size_t size = 99, total = 99;
        CHECK_OK(ABT_pool_is_empty(p, &empty));
        CHECK_OK(ABT_pool_get_size(p, &size));
        CHECK_OK(ABT_pool_get_total_size(p, &total));
        CHECK_EQ(empty, ABT_TRUE);
        CHECK_EQ(size, 0);
        CHECK_EQ(total, 0);

        data = (void *)0x10;
        CHECK_OK(ABT_pool_get_data(p, &data));
        CHECK(data == NULL);
        int cookie;
        CHECK_OK(ABT_pool_set_data(p, &cookie));
        CHECK_OK(ABT_pool_get_data(p, &data));
        CHECK(data == &cookie);

        ABT_thread t[3];
        for (int k = 0; k < 3; k++) {
            CHECK_OK(ABT_thread_create(p, noop, NULL, ABT_THREAD_ATTR_NULL, &t[k]));
            CHECK_OK(ABT_pool_get_size(p, &size));
            CHECK_EQ(size, (size_t)k + 1);
        }
        int tid = -1;
        CHECK_OK(ABT_thread_get_last_pool_id(t[0], &tid));
        CHECK_EQ(tid, ids[i]);
        CHECK_OK(ABT_pool_is_empty(p, &empty));
        CHECK_EQ(empty, ABT_FALSE);
        CHECK_OK(ABT_pool_get_total_size(p, &total));
        CHECK_EQ(total, 3);
        /* The data survives pushes and pops (it is not the pool's state). */
        CHECK_OK(ABT_pool_get_data(p, &data));
        CHECK(data == &cookie);

        ABT_thread x;
        for (int k = 0; k < 3; k++) {
            CHECK_OK(ABT_pool_pop_thread(p, &x));
            CHECK(x != ABT_THREAD_NULL);
            CHECK_OK(ABT_pool_get_size(p, &size));
            CHECK_EQ(size, (size_t)(2 - k));
        }
        CHECK_OK(ABT_pool_is_empty(p, &empty));
        CHECK_EQ(empty, ABT_TRUE);

        /* Queries from an external thread. */
        CHECK_OK(ABT_pool_push_thread(p, t[1]));
        ext_pool = p;
        pthread_t pt;
        CHECK_EQ(pthread_create(&pt, NULL, ext_query, NULL), 0);
        pthread_join(pt, NULL);
        for (int k = 0; k < 4; k++)
            CHECK_EQ(ext_ret[k], ABT_SUCCESS);
        CHECK_EQ(ext_empty, ABT_FALSE);
        CHECK_EQ(ext_size, 1);
        CHECK_EQ(ext_total, 1);
        CHECK_EQ(ext_id, ids[i]);
        CHECK_OK(ABT_pool_pop_thread(p, &x));
        CHECK(x == t[1]);

        CHECK_OK(ABT_pool_set_data(p, NULL));
        CHECK_OK(ABT_pool_get_data(p, &data));
        CHECK(data == NULL);

        for (int k = 0; k < 3; k++)
            CHECK_OK(ABT_pool_push_thread(main_pool, t[k]));
        for (int k = 0; k < 3; k++)
            CHECK_OK(ABT_thread_free(&t[k]));
    }
    for (int i = 0; i < NPOOLS; i++)
        CHECK_OK(ABT_pool_free(&pools[i]));

    /* ABT_POOL_NULL everywhere. */
    const ABT_pool N = ABT_POOL_NULL;
    ABT_bool b;
    size_t sz, num;
    int id;
    ABT_pool_access acc;
    ABT_unit u;
    ABT_thread th, ths[2] = {ABT_THREAD_NULL, ABT_THREAD_NULL};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_thread some;
    CHECK_OK(ABT_thread_create(main_pool, noop, NULL, ABT_THREAD_ATTR_NULL, &some));
    ABT_unit some_unit;
    CHECK_OK(ABT_thread_get_unit(some, &some_unit));

    CHECK_ERR(ABT_pool_get_access(N, &acc), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_is_empty(N, &b), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_size(N, &sz), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_total_size(N, &sz), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_id(N, &id), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_set_data(N, NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_get_data(N, &data), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop(N, &u), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_thread(N, &th), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_thread_ex(N, &th, ABT_POOL_CONTEXT_OP_POOL_OTHER), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_threads(N, ths, 2, &num), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_threads_ex(N, ths, 2, &num, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_wait(N, &u, 0.01), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread(N, &th, 0.01), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_wait_thread_ex(N, &th, 0.01, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_pop_timedwait(N, &u, wtime_now() + 0.01), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push(N, some_unit), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_thread(N, some), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_thread(N, ABT_THREAD_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_thread_ex(N, some, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_threads(N, ths, 2), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_push_threads_ex(N, ths, 2, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_remove(N, some_unit), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_print_all(N, NULL, print_unit), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_print_all_threads(N, NULL, print_thread), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_pool_add_sched(N, sched), ABT_ERR_INV_POOL);
    ABT_pool nullpool = ABT_POOL_NULL;
    CHECK_ERR(ABT_pool_free(&nullpool), ABT_ERR_INV_POOL);

    CHECK_OK(ABT_thread_free(&some)); /* it was in main_pool all along */
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
