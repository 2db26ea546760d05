/* Ownership errors of a non-recursive mutex: trylock of a held mutex is
 * ABT_ERR_MUTEX_LOCKED (for its owner too); its owner locking it again with
 * lock, lock_low, lock_high or spinlock gets ABT_ERR_MUTEX instead of a
 * deadlock; unlocking a mutex that is not locked, or that another ULT holds
 * (on the same ES or on another one), is ABT_ERR_MUTEX with every unlock
 * variant; none of these errors changes who holds the mutex. */
#include "bb_test.h"

static ABT_mutex mtx;
static int r_trylock = -1, r_unlock = -1, r_unlock_se = -1, r_unlock_de = -1;

static void intruder(void *arg)
{
    (void)arg;
    r_trylock = ABT_mutex_trylock(mtx);
    r_unlock = ABT_mutex_unlock(mtx);
    r_unlock_se = ABT_mutex_unlock_se(mtx);
    r_unlock_de = ABT_mutex_unlock_de(mtx);
}

static int h_lock = -1, h_unlock = -1;
static void holder_lock(void *arg)
{
    (void)arg;
    h_lock = ABT_mutex_lock(mtx);
}
static void holder_unlock(void *arg)
{
    (void)arg;
    h_unlock = ABT_mutex_unlock(mtx);
}

static void run_on(ABT_pool pool, void (*fn)(void *))
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
}

static void check_intruder(ABT_pool pool)
{
    r_trylock = r_unlock = r_unlock_se = r_unlock_de = -1;
    run_on(pool, intruder);
    CHECK_EQ(r_trylock, ABT_ERR_MUTEX_LOCKED);
    CHECK_EQ(r_unlock, ABT_ERR_MUTEX);
    CHECK_EQ(r_unlock_se, ABT_ERR_MUTEX);
    CHECK_EQ(r_unlock_de, ABT_ERR_MUTEX);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool main_pool, pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mtx));

    /* Not locked at all. */
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_unlock_se(mtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_unlock_de(mtx), ABT_ERR_MUTEX);

    /* Held by the primary ULT. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_lock(mtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_lock_low(mtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_lock_high(mtx), ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_spinlock(mtx), ABT_ERR_MUTEX);
    check_intruder(main_pool); /* a ULT on the same ES */
    check_intruder(pool);      /* a ULT on another ES */
    CHECK_OK(ABT_mutex_unlock(mtx)); /* still the owner after all that */
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);

    /* Held by a ULT that has finished (joined, not freed, so that no new ULT
     * can reuse its identity): still not ours to unlock. */
    ABT_thread holder;
    CHECK_OK(ABT_thread_create(pool, holder_lock, NULL, ABT_THREAD_ATTR_NULL, &holder));
    CHECK_OK(ABT_thread_join(holder));
    CHECK_EQ(h_lock, ABT_SUCCESS);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);
    check_intruder(main_pool);
    /* A different ULT is not the owner either; the mutex stays held. */
    run_on(pool, holder_unlock);
    CHECK_EQ(h_unlock, ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    /* A locked mutex may be freed, whoever held it. */
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_thread_free(&holder));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
