/* A recursive mutex (ABT_mutex_attr_set_recursive): its owner may lock it
 * again with lock, trylock, lock_low/high and spinlock; n locks need n
 * unlocks, and one more unlock is ABT_ERR_MUTEX. While it is held at any
 * depth another unit's trylock is ABT_ERR_MUTEX_LOCKED and its unlock
 * ABT_ERR_MUTEX, and a ULT on another ES that calls lock stays blocked until
 * the owner has undone every level; then it gets the mutex and can nest it
 * too. */
#include "bb_test.h"
#include <stdatomic.h>

#define DEPTH 5

static ABT_mutex mtx;
static atomic_int got;
static int other_trylock = -1, other_unlock = -1, ret_lock = -1, ret_nest = -1,
           ret_un1 = -1, ret_un2 = -1, ret_un3 = -1;

static void prober(void *arg)
{
    (void)arg;
    other_trylock = ABT_mutex_trylock(mtx);
    other_unlock = ABT_mutex_unlock(mtx);
}

static void locker(void *arg)
{
    (void)arg;
    ret_lock = ABT_mutex_lock(mtx);
    atomic_store(&got, 1);
    ret_nest = ABT_mutex_lock(mtx);
    ret_un1 = ABT_mutex_unlock(mtx);
    ret_un2 = ABT_mutex_unlock(mtx);
    ret_un3 = ABT_mutex_unlock(mtx);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    ABT_mutex_attr attr;
    CHECK_OK(ABT_mutex_attr_create(&attr));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, &mtx));
    CHECK_OK(ABT_mutex_attr_free(&attr));

    /* Nesting with every kind of lock call. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_OK(ABT_mutex_trylock(mtx));
    CHECK_OK(ABT_mutex_lock_low(mtx));
    CHECK_OK(ABT_mutex_lock_high(mtx));
    CHECK_OK(ABT_mutex_spinlock(mtx)); /* DEPTH levels now */

    /* Another unit can neither take nor release it. */
    ABT_thread p;
    CHECK_OK(ABT_thread_create(pool, prober, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_OK(ABT_thread_free(&p));
    CHECK_EQ(other_trylock, ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(other_unlock, ABT_ERR_MUTEX);

    /* A ULT on the other ES blocks until every level is undone. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, locker, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        usleep(200);
    }
    for (int i = 0; i < DEPTH - 1; i++) {
        CHECK_OK(ABT_mutex_unlock(mtx));
        usleep(2000);
        CHECK_EQ(atomic_load(&got), 0);
        CHECK_OK(ABT_thread_get_state(t, &st));
        CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    }
    CHECK_OK(ABT_mutex_unlock_se(mtx)); /* the last level */
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&got), 1);
    CHECK_EQ(ret_lock, ABT_SUCCESS);
    CHECK_EQ(ret_nest, ABT_SUCCESS);
    CHECK_EQ(ret_un1, ABT_SUCCESS);
    CHECK_EQ(ret_un2, ABT_SUCCESS);
    CHECK_EQ(ret_un3, ABT_ERR_MUTEX); /* one unlock too many */

    /* Free again, and one unlock too many from the first owner too. */
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(mtx));
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_ERR(ABT_mutex_unlock_de(mtx), ABT_ERR_MUTEX);

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
