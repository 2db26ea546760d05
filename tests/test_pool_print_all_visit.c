/* ABT_pool_print_all and ABT_pool_print_all_threads on built-in pools (FIFO,
 * FIFO_WAIT, RANDWS; private and shared): the callback is called once per
 * unit in the pool, in the order pops would take them (head first), with the
 * caller's arg; print_all hands the ABT_unit that ABT_thread_get_unit gives,
 * print_all_threads the ABT_thread (tasklets included). An empty pool calls
 * it zero times. Nothing is removed from the pool. */
#include "bb_test.h"

#define N 6

static int ran;

static void work(void *arg)
{
    (void)arg;
    ran++;
}

struct seen {
    int n;
    ABT_thread threads[2 * N];
    ABT_unit units[2 * N];
};

static void see_thread(void *arg, ABT_thread t)
{
    struct seen *s = arg;
    if (s->n < 2 * N)
        s->threads[s->n] = t;
    s->n++;
}

static void see_unit(void *arg, ABT_unit u)
{
    struct seen *s = arg;
    if (s->n < 2 * N)
        s->units[s->n] = u;
    s->n++;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    const ABT_pool_kind kinds[3] = {ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT, ABT_POOL_RANDWS};
    const ABT_pool_access accesses[2] = {ABT_POOL_ACCESS_PRIV, ABT_POOL_ACCESS_MPMC};
    for (int k = 0; k < 3; k++) {
        for (int a = 0; a < 2; a++) {
            ABT_pool pool;
            CHECK_OK(ABT_pool_create_basic(kinds[k], accesses[a], ABT_FALSE, &pool));
            struct seen s = {0};
            CHECK_OK(ABT_pool_print_all_threads(pool, &s, see_thread));
            CHECK_EQ(s.n, 0);
            CHECK_OK(ABT_pool_print_all(pool, &s, see_unit));
            CHECK_EQ(s.n, 0);

            /* Units 0..N-2 are ULTs, unit N-1 a tasklet. */
            ABT_thread t[N];
            for (long i = 0; i < N - 1; i++)
                CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
            CHECK_OK(ABT_task_create(pool, work, NULL, &t[N - 1]));
            /* RANDWS put the new units at the head: re-push them at the
             * tail so that the expected order is 0..N-1 for every kind. */
            ABT_thread x;
            for (int i = 0; i < N; i++)
                CHECK_OK(ABT_pool_pop_thread(pool, &x));
            for (int i = 0; i < N; i++)
                CHECK_OK(ABT_pool_push_thread(pool, t[i]));

            memset(&s, 0, sizeof(s));
            CHECK_OK(ABT_pool_print_all_threads(pool, &s, see_thread));
            CHECK_EQ(s.n, N);
            for (int i = 0; i < N; i++)
                CHECK(s.threads[i] == t[i]);

            memset(&s, 0, sizeof(s));
            CHECK_OK(ABT_pool_print_all(pool, &s, see_unit));
            CHECK_EQ(s.n, N);
            for (int i = 0; i < N; i++) {
                ABT_unit u = ABT_UNIT_NULL;
                CHECK_OK(ABT_thread_get_unit(t[i], &u));
                CHECK(s.units[i] == u);
                ABT_thread back = ABT_THREAD_NULL;
                CHECK_OK(ABT_unit_get_thread(s.units[i], &back));
                CHECK(back == t[i]);
            }
            size_t size = 0;
            CHECK_OK(ABT_pool_get_size(pool, &size));
            CHECK_EQ(size, N);

            /* After a pop and a RANDWS-style steal the walk shrinks with it. */
            CHECK_OK(ABT_pool_pop_thread(pool, &x));
            CHECK(x == t[0]);
            CHECK_OK(ABT_pool_pop_thread_ex(pool, &x, ABT_POOL_CONTEXT_OWNER_SECONDARY));
            CHECK(x == (kinds[k] == ABT_POOL_RANDWS ? t[N - 1] : t[1]));
            memset(&s, 0, sizeof(s));
            CHECK_OK(ABT_pool_print_all_threads(pool, &s, see_thread));
            CHECK_EQ(s.n, N - 2);
            int first = kinds[k] == ABT_POOL_RANDWS ? 1 : 2;
            for (int i = 0; i < N - 2; i++)
                CHECK(s.threads[i] == t[first + i]);

            /* Run everything on the primary ES. */
            while (ABT_pool_pop_thread(pool, &x) == ABT_SUCCESS && x != ABT_THREAD_NULL)
                ;
            ran = 0;
            for (int i = 0; i < N; i++)
                CHECK_OK(ABT_pool_push_thread(main_pool, t[i]));
            for (int i = 0; i < N - 1; i++)
                CHECK_OK(ABT_thread_free(&t[i]));
            CHECK_OK(ABT_task_free(&t[N - 1]));
            CHECK_EQ(ran, N);
            CHECK_OK(ABT_pool_free(&pool));
        }
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
