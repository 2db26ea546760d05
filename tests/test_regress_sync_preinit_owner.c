/* Regression (sync review): a mutex the main OS thread locked before ABT_init
 * stays locked after ABT_init, and a recursive one belongs to the primary ULT
 * only, not to every ULT that runs on that thread. Another ULT (on the
 * primary ES, the same OS thread, or on a second ES) sees both as held:
 * trylock -> ABT_ERR_MUTEX_LOCKED; its unlock of the recursive one ->
 * ABT_ERR_MUTEX; its lock of either waits (BLOCKED; no recursive entry, no
 * error) until the primary ULT unlocks that one. (A plain mutex records no
 * owner, as in Argobots: another unit's unlock would release it, so it is not
 * tried here.) */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex_memory plain_mem = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory rec_mem = ABT_RECURSIVE_MUTEX_INITIALIZER;
static atomic_int got;
static int r[7];

static void other(void *arg)
{
    (void)arg;
    ABT_mutex plain = ABT_MUTEX_MEMORY_GET_HANDLE(&plain_mem);
    ABT_mutex rec = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);
    r[0] = ABT_mutex_trylock(rec);
    r[1] = ABT_mutex_unlock(rec);
    r[2] = ABT_mutex_trylock(plain);
    r[3] = ABT_mutex_lock(plain); /* waits for the primary ULT */
    atomic_fetch_add(&got, 1);
    r[4] = ABT_mutex_lock(rec); /* waits for the primary ULT */
    atomic_fetch_add(&got, 1);
    r[5] = ABT_mutex_unlock(rec);
    r[6] = ABT_mutex_unlock(plain);
}

/* Until `t` is BLOCKED with `got` at `n`, or it ends, or we give up. */
static void wait_blocked(ABT_thread t, int n)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (int i = 0; i < 100000 && !(st == ABT_THREAD_STATE_BLOCKED && atomic_load(&got) == n) &&
                    st != ABT_THREAD_STATE_TERMINATED;
         i++) {
        ABT_thread_yield();
        usleep(20);
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    for (int i = 0; i < 10; i++)
        ABT_thread_yield();
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(atomic_load(&got), n);
}

static void run_case(ABT_pool pool, const char *who)
{
    printf("%s\n", who);
    ABT_mutex plain = ABT_MUTEX_MEMORY_GET_HANDLE(&plain_mem);
    ABT_mutex rec = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);
    memset(r, -1, sizeof(r));
    atomic_store(&got, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, other, NULL, ABT_THREAD_ATTR_NULL, &t));
    wait_blocked(t, 0); /* on the plain mutex */
    CHECK_OK(ABT_mutex_unlock(plain));
    wait_blocked(t, 1); /* on the recursive one */
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&got), 2);
    const int expect[7] = {ABT_ERR_MUTEX_LOCKED, ABT_ERR_MUTEX, ABT_ERR_MUTEX_LOCKED,
                           ABT_SUCCESS,          ABT_SUCCESS,   ABT_SUCCESS,
                           ABT_SUCCESS};
    for (int i = 0; i < 7; i++)
        if (r[i] != expect[i])
            BB_FAIL_AT("%s: step %d returned %d, expected %d", who, i, r[i], expect[i]);
}

int main(void)
{
    BB_TEST_BEGIN(15);
    ABT_mutex plain = ABT_MUTEX_MEMORY_GET_HANDLE(&plain_mem);
    ABT_mutex rec = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);

    /* Locked before ABT_init by this OS thread. */
    CHECK_OK(ABT_mutex_lock(plain));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool0));
    run_case(pool0, "ULT on the primary ES");

    CHECK_OK(ABT_finalize());

    /* Once more (locked before a new ABT_init), the ULT on a second ES. */
    CHECK_OK(ABT_mutex_lock(plain));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    run_case(pool1, "ULT on a second ES");
    CHECK_OK(ABT_xstream_free(&es));

    /* Both free again. */
    CHECK_OK(ABT_mutex_trylock(plain));
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_OK(ABT_mutex_trylock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_finalize());
    CHECK_OK(ABT_mutex_trylock(plain)); /* and after ABT_finalize */
    CHECK_OK(ABT_mutex_unlock(plain));
    BB_TEST_END();
}
