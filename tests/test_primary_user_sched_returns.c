/* A user-defined main scheduler of the primary ES whose run() returns
 * before ABT_finalize (here: whenever its pool is empty, a loop a user may
 * well write) is called again: the primary ES stops only in ABT_finalize
 * (REFERENCE.md, section 2). Units pushed after a return still run, the
 * primary ULT keeps running between them, and the finalize ends the
 * scheduler for good. */
#include <stdatomic.h>

#include "sched_user_util.h"

static atomic_int runs, ran;

/* Runs what its pool holds, then returns. */
static void run_until_empty(ABT_sched sched)
{
    atomic_fetch_add(&runs, 1);
    ABT_pool pool;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (;;) {
        ABT_thread t = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_thread(pool, &t));
        if (t == ABT_THREAD_NULL)
            return;
        CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
    }
}

static void yield_then_count(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_yield());
    atomic_fetch_add(&ran, 1);
}

static ABT_eventual done;

/* Sets `done` once the scheduler has been called again twice. */
static void set_after_runs(void *arg)
{
    int before = *(int *)arg;
    while (atomic_load(&runs) < before + 2)
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_eventual_set(done, NULL, 0));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = run_until_empty};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_set_main_sched(self, sched)); /* the primary ULT moves to `pool` */

    for (int round = 0; round < 5; round++) {
        ABT_thread t[4];
        for (int i = 0; i < 4; i++)
            CHECK_OK(ABT_thread_create(pool, yield_then_count, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        for (int i = 0; i < 4; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(atomic_load(&ran), 4 * (round + 1));
    }
    /* The primary ULT blocks until another ES sets the eventual: meanwhile
     * the pool is empty, and the scheduler returns and is called again. */
    int before = atomic_load(&runs);
    ABT_xstream other;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &other));
    ABT_pool other_pool;
    CHECK_OK(ABT_xstream_get_main_pools(other, 1, &other_pool));
    CHECK_OK(ABT_eventual_create(0, &done));
    CHECK_OK(ABT_thread_create(other_pool, set_after_runs, &before, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_eventual_wait(done, NULL));
    CHECK_OK(ABT_eventual_free(&done));
    CHECK_OK(ABT_xstream_free(&other));

    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(self, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
