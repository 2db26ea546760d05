/* A ULT blocked in ABT_mutex_lock reports ABT_THREAD_STATE_BLOCKED and is
 * in no pool; ABT_thread_resume on it fails (ABT_ERR_THREAD, as for a ULT
 * blocked in a join) and does not wake it: it stays BLOCKED, does not get
 * the mutex (it stays held: trylock is ABT_ERR_MUTEX_LOCKED), and after the
 * real unlock it gets the mutex normally. Checked with the waiter on the
 * primary ES and on a second ES. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mtx;
static atomic_int got;
static int lock_ret = -1;

static void waiter(void *arg)
{
    (void)arg;
    lock_ret = ABT_mutex_lock(mtx);
    atomic_store(&got, 1);
    ABT_mutex_unlock(mtx);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
        usleep(100);
    }
}

static void run_case(ABT_pool pool)
{
    atomic_store(&got, 0);
    lock_ret = -1;
    CHECK_OK(ABT_mutex_lock(mtx));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    wait_blocked(t);
    size_t size = 99;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 0);

    CHECK_ERR(ABT_thread_resume(t), ABT_ERR_THREAD);
    for (int i = 0; i < 20; i++) {
        ABT_thread_yield();
        usleep(500);
    }
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(atomic_load(&got), 0);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED); /* still held */

    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&got), 1);
    CHECK_EQ(lock_ret, ABT_SUCCESS);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool main_pool, pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_mutex_create(&mtx));

    run_case(main_pool);
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    run_case(pool);

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
