/* Futures and eventuals set from a ULT on another ES than their waiters, which
 * are ULTs and an external pthread, over many rounds (alternating which ES
 * sets and which waits, reusing the object with reset).
 * Future: the callback runs exactly once per round, sees every compartment's
 * value exactly once, and has finished before any waiter wakes.
 * Eventual: waiters see the payload that was copied into its buffer;
 * ABT_eventual_test agrees; setting twice without reset -> ABT_ERR_EVENTUAL.
 * A static ABT_EVENTUAL_INITIALIZER eventual (no buffer, nbytes 0) wakes its
 * waiters too. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "bb_test.h"

#define NES 2
#define ROUNDS 40
#define K 8       /* future compartments = setter ULTs */
#define W 6       /* waiter ULTs (+ 1 external thread) */
#define PAYLOAD 64

static ABT_pool pools[NES];
static atomic_int started, errors, early, bad_values;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

/* Let the waiters get into their wait (mostly) before anything is set. */
static void await_waiters(void)
{
    while (atomic_load(&started) < W + 1)
        ABT_thread_yield();
    for (int i = 0; i < 20; i++)
        ABT_thread_yield();
}

/* ---- futures ---------------------------------------------------------------- */

static ABT_future future;
static int vals[K];
static atomic_int cb_calls, cb_done;
static int cb_bad;

static void callback(void **args)
{
    int hits[K] = {0};
    for (int i = 0; i < K; i++) {
        int *p = args[i];
        if (p < &vals[0] || p > &vals[K - 1])
            cb_bad++;
        else
            hits[p - vals]++;
    }
    for (int i = 0; i < K; i++)
        if (hits[i] != 1)
            cb_bad++;
    /* Make a late flag visible only if the waiters might be woken early. */
    for (volatile int k = 0; k < 10000; k++) {
    }
    atomic_fetch_add(&cb_calls, 1);
    atomic_store(&cb_done, 1);
}

static void future_setter(void *arg)
{
    await_waiters();
    note(ABT_future_set(future, arg));
}

static void future_check_after_wait(void)
{
    if (atomic_load(&cb_done) != 1)
        atomic_fetch_add(&early, 1);
    ABT_bool ready = ABT_FALSE;
    note(ABT_future_test(future, &ready));
    if (ready != ABT_TRUE)
        atomic_fetch_add(&early, 1);
}

static void future_waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    note(ABT_future_wait(future));
    future_check_after_wait();
}

static void *future_ext_waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    note(ABT_future_wait(future));
    future_check_after_wait();
    return NULL;
}

static void future_rounds(void)
{
    CHECK_OK(ABT_future_create(K, callback, &future));
    for (int r = 0; r < ROUNDS; r++) {
        int set_side = r % 2, wait_side = 1 - set_side;
        atomic_store(&started, 0);
        atomic_store(&cb_done, 0);
        ABT_bool ready = ABT_TRUE;
        CHECK_OK(ABT_future_test(future, &ready));
        CHECK_EQ(ready, ABT_FALSE);

        pthread_t ext;
        ABT_thread waiters[W], setters[K];
        for (int i = 0; i < W; i++)
            CHECK_OK(ABT_thread_create(pools[wait_side], future_waiter, NULL,
                                       ABT_THREAD_ATTR_NULL, &waiters[i]));
        CHECK_EQ(pthread_create(&ext, NULL, future_ext_waiter, NULL), 0);
        for (int i = 0; i < K; i++)
            CHECK_OK(ABT_thread_create(pools[set_side], future_setter, &vals[i],
                                       ABT_THREAD_ATTR_NULL, &setters[i]));
        for (int i = 0; i < K; i++)
            CHECK_OK(ABT_thread_free(&setters[i]));
        for (int i = 0; i < W; i++)
            CHECK_OK(ABT_thread_free(&waiters[i]));
        CHECK_EQ(pthread_join(ext, NULL), 0);

        CHECK_EQ(atomic_load(&cb_calls), r + 1);
        if (r == 0)
            CHECK_ERR(ABT_future_set(future, &vals[0]), ABT_ERR_FUTURE); /* all set */
        CHECK_OK(ABT_future_reset(future));
    }
    CHECK_EQ(cb_bad, 0);
    CHECK_EQ(atomic_load(&early), 0);
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_OK(ABT_future_free(&future));
    CHECK(future == ABT_FUTURE_NULL);
}

/* ---- eventuals -------------------------------------------------------------- */

static ABT_eventual eventual;
static int round_no;

static void fill(unsigned char *p, int r)
{
    for (int i = 0; i < PAYLOAD; i++)
        p[i] = (unsigned char)(r * 31 + i * 7 + 1);
}

static int matches(const void *value, int r)
{
    unsigned char expect[PAYLOAD];
    fill(expect, r);
    return value && memcmp(value, expect, PAYLOAD) == 0;
}

static void eventual_setter(void *arg)
{
    (void)arg;
    unsigned char payload[PAYLOAD]; /* on the setter's stack: the eventual copies it */
    fill(payload, round_no);
    await_waiters();
    note(ABT_eventual_set(eventual, payload, PAYLOAD));
    memset(payload, 0, sizeof(payload));
}

static void eventual_check(void)
{
    void *value = NULL;
    note(ABT_eventual_wait(eventual, &value));
    if (!matches(value, round_no))
        atomic_fetch_add(&bad_values, 1);
    ABT_bool ready = ABT_FALSE;
    void *value2 = NULL;
    note(ABT_eventual_test(eventual, &value2, &ready));
    if (ready != ABT_TRUE || value2 != value)
        atomic_fetch_add(&bad_values, 1);
}

static void eventual_waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    eventual_check();
}

static void *eventual_ext_waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    eventual_check();
    return NULL;
}

static void eventual_rounds(void)
{
    CHECK_OK(ABT_eventual_create(PAYLOAD, &eventual));
    for (int r = 0; r < ROUNDS; r++) {
        int set_side = r % 2, wait_side = 1 - set_side;
        round_no = r;
        atomic_store(&started, 0);
        ABT_bool ready = ABT_TRUE;
        CHECK_OK(ABT_eventual_test(eventual, NULL, &ready));
        CHECK_EQ(ready, ABT_FALSE);

        pthread_t ext;
        ABT_thread waiters[W], setter;
        for (int i = 0; i < W; i++)
            CHECK_OK(ABT_thread_create(pools[wait_side], eventual_waiter, NULL,
                                       ABT_THREAD_ATTR_NULL, &waiters[i]));
        CHECK_EQ(pthread_create(&ext, NULL, eventual_ext_waiter, NULL), 0);
        CHECK_OK(ABT_thread_create(pools[set_side], eventual_setter, NULL, ABT_THREAD_ATTR_NULL,
                                   &setter));
        CHECK_OK(ABT_thread_free(&setter));
        for (int i = 0; i < W; i++)
            CHECK_OK(ABT_thread_free(&waiters[i]));
        CHECK_EQ(pthread_join(ext, NULL), 0);

        unsigned char again[PAYLOAD] = {0};
        CHECK_ERR(ABT_eventual_set(eventual, again, PAYLOAD), ABT_ERR_EVENTUAL);
        void *value = NULL;
        CHECK_OK(ABT_eventual_wait(eventual, &value)); /* ready: returns at once */
        CHECK(matches(value, r));
        CHECK_OK(ABT_eventual_reset(eventual));
    }
    CHECK_EQ(atomic_load(&bad_values), 0);
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_OK(ABT_eventual_free(&eventual));
    CHECK(eventual == ABT_EVENTUAL_NULL);
}

/* ---- a static eventual without a buffer ------------------------------------- */

static ABT_eventual_memory static_ev_mem = ABT_EVENTUAL_INITIALIZER;

static void static_setter(void *arg)
{
    (void)arg;
    await_waiters();
    note(ABT_eventual_set(eventual, NULL, 0));
}

static void static_check(void)
{
    void *value = (void *)1;
    note(ABT_eventual_wait(eventual, &value));
    if (value != NULL)
        atomic_fetch_add(&bad_values, 1);
}

static void static_waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    static_check();
}

static void *static_ext_waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    static_check();
    return NULL;
}

static void static_eventual(void)
{
    eventual = ABT_EVENTUAL_MEMORY_GET_HANDLE(&static_ev_mem);
    for (int r = 0; r < 4; r++) {
        atomic_store(&started, 0);
        pthread_t ext;
        ABT_thread waiters[W], setter;
        for (int i = 0; i < W; i++)
            CHECK_OK(ABT_thread_create(pools[r % 2], static_waiter, NULL, ABT_THREAD_ATTR_NULL,
                                       &waiters[i]));
        CHECK_EQ(pthread_create(&ext, NULL, static_ext_waiter, NULL), 0);
        CHECK_OK(ABT_thread_create(pools[1 - r % 2], static_setter, NULL, ABT_THREAD_ATTR_NULL,
                                   &setter));
        CHECK_OK(ABT_thread_free(&setter));
        for (int i = 0; i < W; i++)
            CHECK_OK(ABT_thread_free(&waiters[i]));
        CHECK_EQ(pthread_join(ext, NULL), 0);
        CHECK_OK(ABT_eventual_reset(eventual));
    }
    CHECK_EQ(atomic_load(&bad_values), 0);
    CHECK_EQ(atomic_load(&errors), 0);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));
    for (int i = 0; i < K; i++)
        vals[i] = 100 + i;

    future_rounds();
    eventual_rounds();
    static_eventual();

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
