/* ABT_mutex_free refuses a mutex that a unit waits on (ABT_ERR_MUTEX, the
 * handle untouched): a ULT on another ES blocks in ABT_mutex_lock while the
 * primary ULT holds it. After the unlock the waiter gets the mutex, and once
 * nobody waits the mutex can be freed (even while locked). */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mtx;
static atomic_int got;
static int lock_ret = -1, unlock_ret = -1;

static void locker(void *arg)
{
    (void)arg;
    lock_ret = ABT_mutex_lock(mtx);
    atomic_store(&got, 1);
    unlock_ret = ABT_mutex_unlock(mtx);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mtx));

    CHECK_OK(ABT_mutex_lock(mtx));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, locker, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        usleep(200);
    }
    ABT_mutex saved = mtx;
    CHECK_ERR(ABT_mutex_free(&mtx), ABT_ERR_MUTEX);
    CHECK(mtx == saved);
    CHECK_EQ(atomic_load(&got), 0);

    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&got), 1);
    CHECK_EQ(lock_ret, ABT_SUCCESS);
    CHECK_EQ(unlock_ret, ABT_SUCCESS);

    /* Nobody waits any more: free works, locked or not. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK(mtx == ABT_MUTEX_NULL);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
