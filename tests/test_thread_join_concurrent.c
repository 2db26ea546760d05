/* Several joiners wait for one unit at the same time, and each of them
 * blocks: ULTs leave their ES to other work, external threads sleep.
 *
 * 1. One ES whose BASIC scheduler always looks at its first pool first: two
 *    ULTs in that pool join a ULT of the second pool, which waits for an
 *    eventual that a third ULT of the second pool sets. A second joiner that
 *    polled (yielding back into the first pool) would keep the second pool
 *    from ever running (it did: the watchdog fired).
 * 2. 40 ULTs over two ESs, the primary ULT and two external threads join one
 *    ULT, which waits until they have all started joining; all return. */
#include <pthread.h>
#include <stdatomic.h>
#include "bb_test.h"

static ABT_eventual ready;
static atomic_int joined_ok;
static ABT_thread joinee;
static int joinee_done;

static void wait_for_ready(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_wait(ready, NULL));
    joinee_done = 1;
}

static void set_ready(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_set(ready, NULL, 0));
}

static void join_joinee(void *arg)
{
    (void)arg;
    if (ABT_thread_join(joinee) == ABT_SUCCESS && joinee_done)
        atomic_fetch_add(&joined_ok, 1);
}

static void first_pool_first(void)
{
    ABT_pool pools[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[i]));
    CHECK_OK(ABT_eventual_create(0, &ready));
    atomic_store(&joined_ok, 0);
    joinee_done = 0;
    ABT_thread joiners[2], setter;
    CHECK_OK(ABT_thread_create(pools[1], wait_for_ready, NULL, ABT_THREAD_ATTR_NULL, &joinee));
    CHECK_OK(ABT_thread_create(pools[1], set_ready, NULL, ABT_THREAD_ATTR_NULL, &setter));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_create(pools[0], join_joinee, NULL, ABT_THREAD_ATTR_NULL, &joiners[i]));
    ABT_sched sched;
    ABT_xstream es;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_OK(ABT_xstream_create(sched, &es));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_free(&joiners[i]));
    CHECK_EQ(atomic_load(&joined_ok), 2);
    CHECK_OK(ABT_thread_free(&setter));
    CHECK_OK(ABT_thread_free(&joinee));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_eventual_free(&ready));
}

/* ---- many joiners of every kind ---------------------------------------------- */

enum { NUM_ULT_JOINERS = 40, NUM_EXT_JOINERS = 2 };
enum { ALL_JOINERS = NUM_ULT_JOINERS + NUM_EXT_JOINERS + 1 };
static atomic_int started;

static void join_counted(void *arg)
{
    atomic_fetch_add(&started, 1);
    join_joinee(arg);
}

static void *ext_join(void *arg)
{
    join_counted(arg);
    return NULL;
}

/* Waits until every joiner has started (and, but for a few instants, is
 * waiting), yielding so that those on its own ES run. */
static void wait_for_joiners(void *arg)
{
    (void)arg;
    while (atomic_load(&started) < ALL_JOINERS)
        ABT_thread_yield();
    for (int i = 0; i < 100; i++)
        ABT_thread_yield();
    joinee_done = 1;
}

static void every_kind(void)
{
    ABT_xstream es;
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[0]));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pools[1]));
    atomic_store(&joined_ok, 0);
    atomic_store(&started, 0);
    joinee_done = 0;
    CHECK_OK(ABT_thread_create(pools[0], wait_for_joiners, NULL, ABT_THREAD_ATTR_NULL, &joinee));
    ABT_thread joiners[NUM_ULT_JOINERS];
    for (int i = 0; i < NUM_ULT_JOINERS; i++)
        CHECK_OK(ABT_thread_create(pools[i % 2], join_counted, NULL, ABT_THREAD_ATTR_NULL,
                                   &joiners[i]));
    pthread_t ext[NUM_EXT_JOINERS];
    for (int i = 0; i < NUM_EXT_JOINERS; i++)
        CHECK_EQ(pthread_create(&ext[i], NULL, ext_join, NULL), 0);
    join_counted(NULL); /* the primary ULT */
    for (int i = 0; i < NUM_EXT_JOINERS; i++)
        CHECK_EQ(pthread_join(ext[i], NULL), 0);
    for (int i = 0; i < NUM_ULT_JOINERS; i++)
        CHECK_OK(ABT_thread_free(&joiners[i]));
    CHECK_EQ(atomic_load(&joined_ok), ALL_JOINERS);
    CHECK_OK(ABT_thread_free(&joinee));
    CHECK_OK(ABT_xstream_free(&es));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    for (int round = 0; round < BB_TEST_SIZE(50, 5); round++) {
        first_pool_first();
        every_kind();
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
