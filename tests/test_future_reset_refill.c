/* ABT_future_reset makes a future not ready again (test reports FALSE, a
 * waiter blocks again) and the next fill fires the callback again, with that
 * fill's values only: a partial fill that is reset is forgotten. Set beyond
 * N after a refill -> ABT_ERR_FUTURE. */
#include "bb_test.h"
#include <stdatomic.h>
#include <stdint.h>

#define N 3
#define ROUNDS 5

static ABT_future future;
static int cb_calls;
static intptr_t seen[N];
static atomic_int woke;

static void callback(void **values)
{
    cb_calls++;
    for (int i = 0; i < N; i++)
        seen[i] = (intptr_t)values[i];
}

static void waiter(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_future_wait(future));
    atomic_fetch_add(&woke, 1);
}

static ABT_bool is_ready(void)
{
    ABT_bool ready = ABT_FALSE;
    CHECK_OK(ABT_future_test(future, &ready));
    return ready;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_future_create(N, callback, &future));

    for (int r = 0; r < ROUNDS; r++) {
        /* A waiter that blocks (the future was reset). */
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
            ABT_thread_yield();
            CHECK_OK(ABT_thread_get_state(t, &st));
        }
        CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
        CHECK_EQ(is_ready(), ABT_FALSE);

        /* A partial fill, forgotten by a reset. */
        if (r % 2) {
            CHECK_OK(ABT_future_set(future, (void *)(intptr_t)-1));
            CHECK_OK(ABT_future_reset(future));
            CHECK_EQ(is_ready(), ABT_FALSE);
        }
        for (int i = 0; i < N; i++) {
            CHECK_EQ(is_ready(), ABT_FALSE);
            CHECK_OK(ABT_future_set(future, (void *)(intptr_t)(100 * r + i)));
        }
        CHECK_EQ(cb_calls, r + 1);
        for (int i = 0; i < N; i++)
            CHECK_EQ(seen[i], 100 * r + i);
        CHECK_EQ(is_ready(), ABT_TRUE);
        CHECK_ERR(ABT_future_set(future, NULL), ABT_ERR_FUTURE);
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(atomic_load(&woke), r + 1);
        CHECK_OK(ABT_future_wait(future));

        CHECK_OK(ABT_future_reset(future));
        CHECK_EQ(is_ready(), ABT_FALSE);
    }
    CHECK_EQ(cb_calls, ROUNDS);

    /* Reset twice in a row, and on a never-set future: harmless. */
    CHECK_OK(ABT_future_reset(future));
    CHECK_EQ(is_ready(), ABT_FALSE);
    CHECK_OK(ABT_future_free(&future));
    CHECK_OK(ABT_future_create(2, NULL, &future));
    CHECK_OK(ABT_future_reset(future));
    CHECK_EQ(is_ready(), ABT_FALSE);
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_OK(ABT_future_set(future, NULL));
    CHECK_EQ(is_ready(), ABT_TRUE);
    CHECK_OK(ABT_future_free(&future));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
