/* A scheduler that waits on a condition variable sleeps holding its ES. A
 * signal sent while the mutex is held used to move such a waiter into the
 * mutex's queue, like any other untimed waiter, without counting it among
 * the waiters that hold an ES; the mutex's unlock then woke only the head
 * of its queue, a ULT of that same ES, which could not run while its
 * scheduler slept: the ES was stuck for good. Now such a waiter is woken
 * instead, and takes the mutex itself.
 *
 * ES 1 runs a user scheduler S over one pool. Three ULTs of that pool queue
 * on mutex M, which the main ULT holds (W0, W1, W2). The main ULT unlocks
 * M (W0 is woken); S takes M first with trylock and waits on C (its unlock
 * wakes W1; W2 stays queued). The main ULT takes M, signals C, unlocks M.
 * All three ULTs must then get M, and S must leave its wait. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

#define NUM_ULTS 3

static ABT_mutex M;
static ABT_cond C;
static atomic_int phase, go, done;

static void nap(void)
{
    struct timespec ts = {0, 100000};
    nanosleep(&ts, NULL);
}

static int sched_init(ABT_sched sched, ABT_sched_config config)
{
    (void)sched;
    (void)config;
    return ABT_SUCCESS;
}

static int sched_free(ABT_sched sched)
{
    (void)sched;
    return ABT_SUCCESS;
}

/* Phase 1: take M ahead of the woken W0 (phase 2: trying), then wait on C
 * until `go` (phase 3: M taken). Phase 4: done. */
static void wait_in_scheduler(void)
{
    atomic_store(&phase, 2);
    while (ABT_mutex_trylock(M) != ABT_SUCCESS)
        ; /* keeps the ES: the woken W0 cannot take M first */
    atomic_store(&phase, 3);
    while (!atomic_load(&go))
        CHECK_OK(ABT_cond_wait(C, M));
    CHECK_OK(ABT_mutex_unlock(M));
    atomic_store(&phase, 4);
}

static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (unsigned round = 1;; round++) {
        if (atomic_load(&phase) == 1)
            wait_in_scheduler();
        ABT_thread t;
        CHECK_OK(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL)
            CHECK_OK(ABT_self_schedule(t, pool));
        if (round % 64 == 0) {
            ABT_bool stop;
            CHECK_OK(ABT_xstream_check_events(sched));
            CHECK_OK(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
        }
    }
}

static void take_and_release(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_mutex_lock(M));
    CHECK_OK(ABT_mutex_unlock(M));
    atomic_fetch_add(&done, 1);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state state;
    do {
        nap();
        CHECK_OK(ABT_thread_get_state(t, &state));
    } while (state != ABT_THREAD_STATE_BLOCKED);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&M));
    CHECK_OK(ABT_cond_create(&C));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .init = sched_init, .run = sched_run,
                         .free = sched_free, .get_migr_pool = NULL};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(sched, &es));

    CHECK_OK(ABT_mutex_lock(M));
    ABT_thread w[NUM_ULTS];
    for (int i = 0; i < NUM_ULTS; i++) {
        CHECK_OK(ABT_thread_create(pool, take_and_release, NULL, ABT_THREAD_ATTR_NULL, &w[i]));
        wait_blocked(w[i]); /* queued in this order */
    }
    atomic_store(&phase, 1);
    while (atomic_load(&phase) != 2)
        nap();
    CHECK_OK(ABT_mutex_unlock(M));
    while (atomic_load(&phase) != 3)
        nap();
    /* Not ABT_mutex_lock: queued on M behind W2 while S still held it, the
     * main ULT would never get it (S's unlock in its wait wakes W2, which
     * cannot run while S sleeps). Once S waits on C, M is free. */
    while (ABT_mutex_trylock(M) != ABT_SUCCESS)
        nap();
    atomic_store(&go, 1);
    CHECK_OK(ABT_cond_signal(C)); /* while holding M */
    CHECK_OK(ABT_mutex_unlock(M));

    /* With the old code the ES stays stuck: report it instead of hanging. */
    for (int i = 0; i < 100000 && (atomic_load(&done) < NUM_ULTS || atomic_load(&phase) != 4); i++)
        nap();
    CHECK_EQ(atomic_load(&phase), 4);
    CHECK_EQ(atomic_load(&done), NUM_ULTS);
    if (atomic_load(&done) < NUM_ULTS || atomic_load(&phase) != 4) {
        fprintf(stderr, "ES 1 is stuck\n");
        _exit(1);
    }
    for (int i = 0; i < NUM_ULTS; i++)
        CHECK_OK(ABT_thread_free(&w[i]));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&sched)); /* not automatic: ours to free */
    CHECK_OK(ABT_cond_free(&C));
    CHECK_OK(ABT_mutex_free(&M));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
