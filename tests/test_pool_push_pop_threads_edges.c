/* Edges of ABT_pool_push_threads and ABT_pool_pop_threads (REFERENCE.md):
 * - push_threads: on an error, the units before the failing one are pushed.
 *   A user pool whose create_unit fails for one thread gets [t0, bad, t2]:
 *   ABT_ERR_OTHER, and t0 is in the pool (its size is 1, a pop gives t0);
 *   with a batch of 70 (more than one internal batch of 64) failing at the
 *   66th, the first 65 are in. bad and the later ones are not.
 * - pop_threads with threads NULL and len > 0: ABT_ERR_INV_ARG, even when
 *   the pool is empty (and nothing is popped when it is not). */
#include "pool_user_util.h"

static ABT_thread bad;
static ABT_unit picky_create_unit(ABT_pool pool, ABT_thread thread)
{
    if (thread == bad)
        return ABT_UNIT_NULL;
    return up_create_unit(pool, thread);
}

static atomic_int ran;
static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

enum { N = 70, BAD_AT = 65 };

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool main_pool = bb_test_main_pool();
    ABT_pool parking;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parking));
    up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool upool = up_new_pool_with(picky_create_unit, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));

    static ABT_thread t[N];
    for (int n = 3; n <= N; n += N - 3) { /* 3, then 70 */
        int bad_at = n == 3 ? 1 : BAD_AT;
        for (int i = 0; i < n; i++)
            CHECK_OK(ABT_thread_create(parking, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        for (int i = 0; i < n; i++) { /* out of any pool */
            ABT_thread got = ABT_THREAD_NULL;
            CHECK_OK(ABT_pool_pop_thread(parking, &got));
            CHECK(got == t[i]);
        }
        bad = t[bad_at];
        CHECK_ERR(ABT_pool_push_threads(upool, t, (size_t)n), ABT_ERR_OTHER);
        size_t size = 0;
        CHECK_OK(ABT_pool_get_size(upool, &size));
        CHECK_EQ(size, bad_at);
        for (int i = 0; i < bad_at; i++) {
            ABT_thread got = ABT_THREAD_NULL;
            CHECK_OK(ABT_pool_pop_thread(upool, &got));
            CHECK(got == t[i]);
        }
        ABT_thread none = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_thread(upool, &none));
        CHECK(none == ABT_THREAD_NULL);
        /* Run them all on the primary ES. */
        CHECK_OK(ABT_pool_push_threads(main_pool, t, (size_t)n));
        for (int i = 0; i < n; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
    }
    CHECK_EQ(atomic_load(&ran), 3 + N);

    /* pop_threads: threads NULL with len > 0. */
    size_t num = 99;
    CHECK_ERR(ABT_pool_pop_threads(parking, NULL, 4, &num), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_pool_pop_threads(parking, NULL, 0, &num));
    CHECK_EQ(num, 0);
    ABT_thread one;
    CHECK_OK(ABT_thread_create(parking, work, NULL, ABT_THREAD_ATTR_NULL, &one));
    CHECK_ERR(ABT_pool_pop_threads(parking, NULL, 4, &num), ABT_ERR_INV_ARG);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(parking, &size));
    CHECK_EQ(size, 1); /* still there */
    ABT_thread got = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(parking, &got));
    CHECK_OK(ABT_pool_push_thread(main_pool, got));
    CHECK_OK(ABT_thread_free(&one));

    CHECK_OK(ABT_pool_free(&upool));
    CHECK_OK(ABT_pool_free(&parking));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
