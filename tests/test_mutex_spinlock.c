/* ABT_mutex_spinlock takes a free mutex at once; on a held mutex it
 * busy-waits without giving up its ES: while a ULT spins on a mutex held by
 * the primary ULT, it stays RUNNING (never BLOCKED) and another ULT queued
 * behind it on the same ES does not run; once the mutex is unlocked the
 * spinner gets it, and then the other ULT runs. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mtx;
static atomic_int spinning, got, other_ran, other_saw_got;
static int spin_ret = -1;

static void spinner(void *arg)
{
    (void)arg;
    atomic_store(&spinning, 1);
    spin_ret = ABT_mutex_spinlock(mtx);
    atomic_store(&got, 1);
    ABT_mutex_unlock(mtx);
}

static void other(void *arg)
{
    (void)arg;
    atomic_store(&other_saw_got, atomic_load(&got));
    atomic_store(&other_ran, 1);
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

    /* Free mutex: taken at once. */
    CHECK_OK(ABT_mutex_spinlock(mtx));
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(mtx));

    /* Held by the primary ULT. */
    CHECK_OK(ABT_mutex_lock(mtx));
    ABT_thread s, o;
    CHECK_OK(ABT_thread_create(pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &s));
    while (!atomic_load(&spinning))
        usleep(100);
    CHECK_OK(ABT_thread_create(pool, other, NULL, ABT_THREAD_ATTR_NULL, &o));
    for (int i = 0; i < 50; i++) {
        ABT_thread_state st;
        CHECK_OK(ABT_thread_get_state(s, &st));
        CHECK_EQ(st, ABT_THREAD_STATE_RUNNING);
        usleep(400);
    }
    CHECK_EQ(atomic_load(&other_ran), 0);
    CHECK_EQ(atomic_load(&got), 0);
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_thread_free(&o));
    CHECK_EQ(spin_ret, ABT_SUCCESS);
    CHECK_EQ(atomic_load(&got), 1);
    CHECK_EQ(atomic_load(&other_ran), 1);
    CHECK_EQ(atomic_load(&other_saw_got), 1);

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
