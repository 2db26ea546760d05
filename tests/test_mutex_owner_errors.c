/* Who may do what to a held mutex, by kind (the Argobots 1.2 rules):
 * - plain: it records no owner. Trylock of a held one is
 *   ABT_ERR_MUTEX_LOCKED for everybody, its holder too. Any ULT may unlock
 *   it (on the same ES as the locker or on another one, with every unlock
 *   variant; also once the locker has finished): ABT_SUCCESS, and it is free
 *   after. Unlocking one that is not locked is ABT_ERR_MUTEX with every
 *   variant. (Its holder's relock waits for ever, as in Argobots; not tried.)
 * - recursive: its owner's lock, lock_low, lock_high, spinlock and trylock
 *   nest, and it takes as many unlocks; another ULT (on the same ES or on
 *   another one) gets ABT_ERR_MUTEX_LOCKED from trylock and ABT_ERR_MUTEX
 *   from every unlock variant, also once the owner has finished; unlocking
 *   one that is not locked is ABT_ERR_MUTEX; none of these errors changes
 *   who holds the mutex or its depth.
 * A locked mutex may be freed, whoever holds it. */
#include "bb_test.h"

typedef int (*unlock_fn)(ABT_mutex);
static const unlock_fn unlocks[3] = {ABT_mutex_unlock, ABT_mutex_unlock_se,
                                     ABT_mutex_unlock_de};
static const char *const unlock_names[3] = {"unlock", "unlock_se", "unlock_de"};

static ABT_mutex mtx, rmtx; /* plain, recursive */

static void run_on(ABT_pool pool, void (*fn)(void *), void *arg)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, fn, arg, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
}

/* ---- plain ---------------------------------------------------------------------- */

/* Another ULT: trylock refused, then unlock variant `arg` twice. */
static int p_try, p_unlock, p_again;
static void plain_unlocker(void *arg)
{
    unlock_fn unlock = unlocks[(int)(intptr_t)arg];
    p_try = ABT_mutex_trylock(mtx);
    p_unlock = unlock(mtx);
    p_again = unlock(mtx);
}

static void check_plain_unlocked_by_other(ABT_pool pool, const char *where)
{
    for (int v = 0; v < 3; v++) {
        p_try = p_unlock = p_again = -1;
        CHECK_OK(ABT_mutex_lock(mtx));
        run_on(pool, plain_unlocker, (void *)(intptr_t)v);
        if (p_try != ABT_ERR_MUTEX_LOCKED || p_unlock != ABT_SUCCESS || p_again != ABT_ERR_MUTEX)
            BB_FAIL_AT("plain, %s by a ULT %s: trylock %d, unlock %d, again %d", unlock_names[v],
                       where, p_try, p_unlock, p_again);
        CHECK_OK(ABT_mutex_trylock(mtx)); /* it was free */
        CHECK_OK(ABT_mutex_unlock(mtx));
    }
}

static int h_lock = -1;
static void plain_lock_and_leave(void *arg)
{
    (void)arg;
    h_lock = ABT_mutex_lock(mtx);
}

static void plain_part(ABT_pool main_pool, ABT_pool pool)
{
    /* Not locked at all. */
    for (int v = 0; v < 3; v++)
        CHECK_ERR(unlocks[v](mtx), ABT_ERR_MUTEX);

    /* Held by the primary ULT: its own trylock is refused too. */
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_ERR(ABT_mutex_unlock(mtx), ABT_ERR_MUTEX);

    /* Held by the primary ULT, unlocked by another ULT. */
    check_plain_unlocked_by_other(main_pool, "on the same ES");
    check_plain_unlocked_by_other(pool, "on another ES");

    /* Held by a ULT that has finished: the primary ULT may unlock it. */
    for (int v = 0; v < 3; v++) {
        h_lock = -1;
        run_on(pool, plain_lock_and_leave, NULL);
        CHECK_EQ(h_lock, ABT_SUCCESS);
        CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
        CHECK_OK(unlocks[v](mtx));
        CHECK_ERR(unlocks[v](mtx), ABT_ERR_MUTEX);
        CHECK_OK(ABT_mutex_trylock(mtx));
        CHECK_OK(ABT_mutex_unlock(mtx));
    }

    /* A locked mutex may be freed. */
    run_on(pool, plain_lock_and_leave, NULL);
    CHECK_OK(ABT_mutex_free(&mtx));
}

/* ---- recursive ------------------------------------------------------------------ */

static int r_trylock = -1, r_unlock[3];

static void intruder(void *arg)
{
    (void)arg;
    r_trylock = ABT_mutex_trylock(rmtx);
    for (int v = 0; v < 3; v++)
        r_unlock[v] = unlocks[v](rmtx);
}

static void check_intruder(ABT_pool pool)
{
    r_trylock = r_unlock[0] = r_unlock[1] = r_unlock[2] = -1;
    run_on(pool, intruder, NULL);
    CHECK_EQ(r_trylock, ABT_ERR_MUTEX_LOCKED);
    for (int v = 0; v < 3; v++)
        CHECK_EQ(r_unlock[v], ABT_ERR_MUTEX);
}

static int h_unlock = -1;
static void rec_holder_lock(void *arg)
{
    (void)arg;
    h_lock = ABT_mutex_lock(rmtx);
}
static void rec_holder_unlock(void *arg)
{
    (void)arg;
    h_unlock = ABT_mutex_unlock(rmtx);
}

static void recursive_part(ABT_pool main_pool, ABT_pool pool)
{
    /* Not locked at all. */
    for (int v = 0; v < 3; v++)
        CHECK_ERR(unlocks[v](rmtx), ABT_ERR_MUTEX);

    /* Held by the primary ULT, 5 deep. */
    CHECK_OK(ABT_mutex_lock(rmtx));
    CHECK_OK(ABT_mutex_lock_low(rmtx));
    CHECK_OK(ABT_mutex_lock_high(rmtx));
    CHECK_OK(ABT_mutex_spinlock(rmtx));
    CHECK_OK(ABT_mutex_trylock(rmtx));
    check_intruder(main_pool); /* a ULT on the same ES */
    check_intruder(pool);      /* a ULT on another ES */
    for (int i = 0; i < 5; i++)
        CHECK_OK(unlocks[i % 3](rmtx)); /* still the owner, still 5 deep */
    CHECK_ERR(ABT_mutex_unlock(rmtx), ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(rmtx)); /* free */
    CHECK_OK(ABT_mutex_unlock(rmtx));

    /* Held by a ULT that has finished (joined, not freed, so that no new ULT
     * can reuse its identity): not ours to unlock. */
    ABT_thread holder;
    h_lock = -1;
    CHECK_OK(ABT_thread_create(pool, rec_holder_lock, NULL, ABT_THREAD_ATTR_NULL, &holder));
    CHECK_OK(ABT_thread_join(holder));
    CHECK_EQ(h_lock, ABT_SUCCESS);
    CHECK_ERR(ABT_mutex_trylock(rmtx), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_mutex_unlock(rmtx), ABT_ERR_MUTEX);
    check_intruder(main_pool);
    /* A different ULT is not the owner either; the mutex stays held. */
    run_on(pool, rec_holder_unlock, NULL);
    CHECK_EQ(h_unlock, ABT_ERR_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(rmtx), ABT_ERR_MUTEX_LOCKED);
    /* A locked mutex may be freed, whoever held it. */
    CHECK_OK(ABT_mutex_free(&rmtx));
    CHECK_OK(ABT_thread_free(&holder));
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
    ABT_mutex_attr attr;
    CHECK_OK(ABT_mutex_attr_create(&attr));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, &rmtx));
    CHECK_OK(ABT_mutex_attr_free(&attr));

    plain_part(main_pool, pool);
    recursive_part(main_pool, pool);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
