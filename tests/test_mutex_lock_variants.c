/* ABT_mutex_lock_low / lock_high behave as ABT_mutex_lock and unlock_se /
 * unlock_de as ABT_mutex_unlock: they can be mixed freely on one mutex; a ULT
 * calling lock_low or lock_high on a mutex held by another ES's ULT blocks
 * (state BLOCKED) and gets the mutex once it is released with unlock_se or
 * unlock_de; and ULTs on two ESs using all the variants keep a shared
 * counter consistent. */
#include "bb_test.h"
#include <stdatomic.h>

#define NULTS 6
#define ITERS 3000

static ABT_mutex mtx;
static long counter;
static atomic_int errors, got;

static int lock_k(int k)
{
    switch (k % 3) {
    case 0: return ABT_mutex_lock(mtx);
    case 1: return ABT_mutex_lock_low(mtx);
    default: return ABT_mutex_lock_high(mtx);
    }
}

static int unlock_k(int k)
{
    switch (k % 3) {
    case 0: return ABT_mutex_unlock(mtx);
    case 1: return ABT_mutex_unlock_se(mtx);
    default: return ABT_mutex_unlock_de(mtx);
    }
}

static void worker(void *arg)
{
    long id = (long)arg;
    for (int i = 0; i < ITERS; i++) {
        if (lock_k(i + (int)id) != ABT_SUCCESS)
            atomic_fetch_add(&errors, 1);
        long v = counter;
        if ((i & 31) == 0)
            ABT_thread_yield();
        counter = v + 1;
        if (unlock_k(i / 3 + (int)id) != ABT_SUCCESS)
            atomic_fetch_add(&errors, 1);
    }
}

static void waiter(void *arg)
{
    long k = (long)arg;
    if (lock_k((int)k) != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
    atomic_store(&got, 1);
    if (unlock_k((int)k) != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));
    CHECK_OK(ABT_mutex_create(&mtx));

    /* Each lock variant paired with each unlock variant. */
    for (int l = 0; l < 3; l++) {
        for (int u = 0; u < 3; u++) {
            CHECK_OK(lock_k(l));
            CHECK_ERR(ABT_mutex_trylock(mtx), ABT_ERR_MUTEX_LOCKED);
            CHECK_OK(unlock_k(u));
            CHECK_OK(ABT_mutex_trylock(mtx));
            CHECK_OK(unlock_k(u));
        }
    }

    /* lock_low and lock_high wait for the holder; unlock_se/_de release. */
    for (long k = 1; k <= 2; k++) {
        atomic_store(&got, 0);
        CHECK_OK(ABT_mutex_lock(mtx));
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pools[1], waiter, (void *)k, ABT_THREAD_ATTR_NULL, &t));
        ABT_thread_state st = ABT_THREAD_STATE_READY;
        while (st != ABT_THREAD_STATE_BLOCKED) {
            CHECK_OK(ABT_thread_get_state(t, &st));
            usleep(200);
        }
        CHECK_EQ(atomic_load(&got), 0);
        CHECK_OK(unlock_k((int)k));
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(atomic_load(&got), 1);
    }

    /* Mixed variants under contention. */
    ABT_thread t[NULTS];
    for (long i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_create(pools[i & 1], worker, (void *)i, ABT_THREAD_ATTR_NULL,
                                   &t[i]));
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(counter, (long)NULTS * ITERS);
    CHECK_EQ(atomic_load(&errors), 0);

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
