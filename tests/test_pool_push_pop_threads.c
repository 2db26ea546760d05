/* ABT_pool_pop_threads(_ex) and ABT_pool_push_threads(_ex) on built-in
 * pools: len 0 writes *num = 0 (a NULL buffer is fine then); at most len
 * threads are popped, in pop order, and entries past *num are untouched; an
 * empty pool gives *num = 0; push_threads keeps the order and skips
 * ABT_THREAD_NULL entries, num 0 pushes nothing; batches larger than 64
 * work. RANDWS: push_threads_ex with OP_THREAD_CREATE puts each at the head,
 * pop_threads_ex with OWNER_SECONDARY takes from the tail.
 * ABT_pool_push_thread(pool, ABT_THREAD_NULL) succeeds and pushes nothing;
 * pop_thread(_ex) on an empty pool gives ABT_THREAD_NULL. */
#include "bb_test.h"

#define N 8
#define BIG 150

static int ran;

static void work(void *arg)
{
    (void)arg;
    ran++;
}

#define SENTINEL ((ABT_thread)(void *)0x5a5a50)

static size_t size_of(ABT_pool pool)
{
    size_t size = 12345;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    return size;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    for (int access = ABT_POOL_ACCESS_PRIV; access <= ABT_POOL_ACCESS_MPMC; access++) {
        ABT_pool pool;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, (ABT_pool_access)access, ABT_FALSE, &pool));

        /* Empty pool. */
        ABT_thread x = SENTINEL;
        CHECK_OK(ABT_pool_pop_thread(pool, &x));
        CHECK(x == ABT_THREAD_NULL);
        x = SENTINEL;
        CHECK_OK(ABT_pool_pop_thread_ex(pool, &x, ABT_POOL_CONTEXT_OWNER_SECONDARY));
        CHECK(x == ABT_THREAD_NULL);
        ABT_thread buf[N + 2];
        size_t num = 77;
        for (int i = 0; i < N + 2; i++)
            buf[i] = SENTINEL;
        CHECK_OK(ABT_pool_pop_threads(pool, buf, N, &num));
        CHECK_EQ(num, 0);
        CHECK(buf[0] == SENTINEL);

        ABT_thread t[N];
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));

        /* len 0 */
        num = 77;
        CHECK_OK(ABT_pool_pop_threads(pool, buf, 0, &num));
        CHECK_EQ(num, 0);
        num = 77;
        CHECK_OK(ABT_pool_pop_threads(pool, NULL, 0, &num));
        CHECK_EQ(num, 0);
        num = 77;
        CHECK_OK(ABT_pool_pop_threads_ex(pool, NULL, 0, &num, ABT_POOL_CONTEXT_OWNER_PRIMARY));
        CHECK_EQ(num, 0);
        CHECK(buf[0] == SENTINEL);
        CHECK_EQ(size_of(pool), N);

        /* 3, then "up to 10" gets the other 5. */
        CHECK_OK(ABT_pool_pop_threads(pool, buf, 3, &num));
        CHECK_EQ(num, 3);
        CHECK(buf[3] == SENTINEL);
        CHECK_OK(ABT_pool_pop_threads_ex(pool, buf + 3, 10, &num,
                                         ABT_POOL_CONTEXT_OWNER_SECONDARY));
        CHECK_EQ(num, N - 3);
        CHECK(buf[N] == SENTINEL);
        CHECK(buf[N + 1] == SENTINEL);
        for (int i = 0; i < N; i++)
            CHECK(buf[i] == t[i]);
        CHECK_EQ(size_of(pool), 0);

        /* push_thread(NULL): success, nothing pushed. */
        CHECK_OK(ABT_pool_push_thread(pool, ABT_THREAD_NULL));
        CHECK_OK(ABT_pool_push_thread_ex(pool, ABT_THREAD_NULL, ABT_POOL_CONTEXT_OP_THREAD_CREATE));
        CHECK_EQ(size_of(pool), 0);

        /* num 0 */
        CHECK_OK(ABT_pool_push_threads(pool, NULL, 0));
        CHECK_OK(ABT_pool_push_threads_ex(pool, t, 0, ABT_POOL_CONTEXT_OP_POOL_OTHER));
        CHECK_EQ(size_of(pool), 0);

        /* NULL entries are skipped; order is kept. */
        ABT_thread with_nulls[N + 4] = {ABT_THREAD_NULL, t[5], t[1], ABT_THREAD_NULL,
                                         t[7], t[0], t[2], ABT_THREAD_NULL,
                                         t[3], t[6], t[4], ABT_THREAD_NULL};
        const int expect[N] = {5, 1, 7, 0, 2, 3, 6, 4};
        CHECK_OK(ABT_pool_push_threads(pool, with_nulls, N + 4));
        CHECK_EQ(size_of(pool), N);
        for (int i = 0; i < N + 2; i++)
            buf[i] = SENTINEL;
        CHECK_OK(ABT_pool_pop_threads(pool, buf, N + 2, &num));
        CHECK_EQ(num, N);
        for (int i = 0; i < N; i++)
            CHECK(buf[i] == t[expect[i]]);
        CHECK(buf[N] == SENTINEL);

        /* All NULL */
        ABT_thread nulls[3] = {ABT_THREAD_NULL, ABT_THREAD_NULL, ABT_THREAD_NULL};
        CHECK_OK(ABT_pool_push_threads_ex(pool, nulls, 3, ABT_POOL_CONTEXT_OP_THREAD_YIELD));
        CHECK_EQ(size_of(pool), 0);

        /* Run them. */
        ran = 0;
        CHECK_OK(ABT_pool_push_threads(main_pool, t, N));
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(ran, N);
        CHECK_OK(ABT_pool_free(&pool));
    }

    /* RANDWS contexts through the batch calls. */
    {
        ABT_pool pool;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
        ABT_thread t[3], buf[3];
        size_t num = 0;
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_pool_pop_threads(pool, buf, 3, &num)); /* from the head */
        CHECK_EQ(num, 3);
        CHECK(buf[0] == t[2] && buf[1] == t[1] && buf[2] == t[0]);

        CHECK_OK(ABT_pool_push_threads_ex(pool, t, 3, ABT_POOL_CONTEXT_OP_THREAD_CREATE));
        CHECK_OK(ABT_pool_pop_threads(pool, buf, 3, &num));
        CHECK_EQ(num, 3);
        CHECK(buf[0] == t[2] && buf[1] == t[1] && buf[2] == t[0]);

        CHECK_OK(ABT_pool_push_threads(pool, t, 3)); /* at the tail: t0 t1 t2 */
        CHECK_OK(ABT_pool_pop_threads_ex(pool, buf, 2, &num, ABT_POOL_CONTEXT_OWNER_SECONDARY));
        CHECK_EQ(num, 2);
        CHECK(buf[0] == t[2] && buf[1] == t[1]);
        CHECK_OK(ABT_pool_pop_threads_ex(pool, buf, 2, &num, ABT_POOL_CONTEXT_OWNER_PRIMARY));
        CHECK_EQ(num, 1);
        CHECK(buf[0] == t[0]);

        ran = 0;
        CHECK_OK(ABT_pool_push_threads(main_pool, t, 3));
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(ran, 3);
        CHECK_OK(ABT_pool_free(&pool));
    }

    /* More than 64 at a time. */
    {
        ABT_pool pool;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
        static ABT_thread t[BIG], buf[BIG + 1], mixed[BIG + 10];
        for (int i = 0; i < BIG; i++)
            CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        size_t num = 0;
        buf[BIG] = SENTINEL;
        CHECK_OK(ABT_pool_pop_threads(pool, buf, BIG + 1, &num));
        CHECK_EQ(num, BIG);
        int in_order = 1;
        for (int i = 0; i < BIG; i++)
            in_order &= buf[i] == t[i];
        CHECK(in_order);
        CHECK(buf[BIG] == SENTINEL);
        /* Push back with NULLs sprinkled in (one every 15). */
        int m = 0;
        for (int i = 0; i < BIG; i++) {
            if (i % 15 == 0)
                mixed[m++] = ABT_THREAD_NULL;
            mixed[m++] = t[BIG - 1 - i];
        }
        CHECK_OK(ABT_pool_push_threads(pool, mixed, (size_t)m));
        CHECK_EQ(size_of(pool), BIG);
        CHECK_OK(ABT_pool_pop_threads_ex(pool, buf, 70, &num, ABT_POOL_CONTEXT_OP_POOL_OTHER));
        CHECK_EQ(num, 70);
        size_t num2 = 0;
        CHECK_OK(ABT_pool_pop_threads(pool, buf + 70, BIG, &num2));
        CHECK_EQ(num2, BIG - 70);
        in_order = 1;
        for (int i = 0; i < BIG; i++)
            in_order &= buf[i] == t[BIG - 1 - i];
        CHECK(in_order);

        ran = 0;
        CHECK_OK(ABT_pool_push_threads(main_pool, t, BIG));
        for (int i = 0; i < BIG; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(ran, BIG);
        CHECK_OK(ABT_pool_free(&pool));
    }

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
