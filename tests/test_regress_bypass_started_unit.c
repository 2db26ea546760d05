/* The join bypass runs a joinee that has not started, taking it out of a
 * pool of the joiner's ES. It looked whether the joinee had started before
 * it took it out of the pool, and another ES sharing that pool could, in
 * between, start the joinee and put it back by a yield: the bypass then
 * started it a second time from its first line, on a context it had left
 * (found by audit 14a: "a ULT's function runs twice"). Now a joinee that
 * turns out to have run is resumed where it yielded.
 *
 * Three secondary ESs serve one shared pool; a ULT there creates ULTs that
 * yield a few times and joins each at once, so that another ES often starts the
 * joinee while the join looks at it. Each ULT counts its starts: every one
 * must start exactly once. Before the fix, the count went to 2 in a few of
 * the rounds (more often with more ESs than cores, which preempts an ES in
 * the middle of a join). */
#include <stdatomic.h>
#include "bb_test.h"

#define NUM_SECONDARY 3
#define ROUNDS BB_TEST_SIZE(200000, 20000) /* at most the size of starts */

static atomic_int starts[200000];

static void body(void *arg)
{
    int i = (int)(intptr_t)arg;
    atomic_fetch_add(&starts[i], 1);
    for (int k = 0; k < 1 + i % 3; k++)
        ABT_thread_yield();
}

static void driver(void *arg)
{
    ABT_pool pool = arg;
    for (int i = 0; i < ROUNDS; i++) {
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, body, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_thread_free(&t)); /* joins: maybe by the bypass */
    }
}

int main(void)
{
    BB_TEST_BEGIN(120);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_xstream es[NUM_SECONDARY];
    for (int i = 0; i < NUM_SECONDARY; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es[i]));
    ABT_thread d;
    CHECK_OK(ABT_thread_create(pool, driver, pool, ABT_THREAD_ATTR_NULL, &d));
    CHECK_OK(ABT_thread_free(&d));
    int twice = 0;
    for (int i = 0; i < ROUNDS; i++)
        twice += atomic_load(&starts[i]) != 1;
    CHECK_EQ(twice, 0);

    for (int i = 0; i < NUM_SECONDARY; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
