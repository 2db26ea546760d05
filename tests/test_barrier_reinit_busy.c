/* ABT_barrier_reinit while idle changes the count (get_num_waiters reports
 * it, and that many arrivals make a round); while a unit waits, reinit ->
 * ABT_ERR_BARRIER and free -> ABT_ERR_BARRIER, with the count and the handle
 * unchanged; once the round completes both work again. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_barrier barrier;
static atomic_int passed;

static void waiter(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_barrier_wait(barrier));
    atomic_fetch_add(&passed, 1);
}

static ABT_thread start_blocked(ABT_pool pool)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_TERMINATED) {
            CHECK(st != ABT_THREAD_STATE_TERMINATED);
            break;
        }
    }
    return t;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    CHECK_OK(ABT_barrier_create(2, &barrier));
    CHECK_OK(ABT_barrier_reinit(barrier, 3)); /* idle: fine */
    uint32_t n = 0;
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, 3);

    ABT_thread t1 = start_blocked(pool);
    ABT_thread t2 = start_blocked(pool); /* 2 of 3: still waiting */
    CHECK_EQ(atomic_load(&passed), 0);

    ABT_barrier saved = barrier;
    CHECK_ERR(ABT_barrier_reinit(barrier, 2), ABT_ERR_BARRIER);
    CHECK_ERR(ABT_barrier_reinit(barrier, 5), ABT_ERR_BARRIER);
    CHECK_ERR(ABT_barrier_free(&barrier), ABT_ERR_BARRIER);
    CHECK(barrier == saved);
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, 3);

    CHECK_OK(ABT_barrier_wait(barrier)); /* the third arrival */
    CHECK_OK(ABT_thread_free(&t1));
    CHECK_OK(ABT_thread_free(&t2));
    CHECK_EQ(atomic_load(&passed), 2);

    /* Idle again. */
    CHECK_OK(ABT_barrier_reinit(barrier, 2));
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, 2);
    t1 = start_blocked(pool);
    CHECK_OK(ABT_barrier_wait(barrier));
    CHECK_OK(ABT_thread_free(&t1));
    CHECK_EQ(atomic_load(&passed), 3);

    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK(barrier == ABT_BARRIER_NULL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
