/* A private pool belongs to the main scheduler of one ES at a time (its
 * home, REFERENCE section 7). Making it the pool of a second ES's main
 * scheduler, by ES creation or scheduler replacement, fails with
 * ABT_ERR_INV_POOL_ACCESS and changes nothing. Before, it succeeded: the
 * home moved to the second ES, both ESs popped the pool's unlocked list at
 * once, and the first ES's own ULTs could no longer create into it. The
 * replacement of a scheduler by one holding the same pool, on the same ES,
 * keeps the home; freeing the ES gives the pool up. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_pool priv, shared; /* an ES's pools: work for it comes through `shared` */
static ABT_pool both[2];
static atomic_int ran;

static void count(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Runs on the pool's home ES: creating into its own private pool works. */
static void create_into_own_pool(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_create(priv, count, NULL, ABT_THREAD_ATTR_NULL, NULL));
}

/* Runs on the home ES too: a new scheduler holding the same pool. */
static void replace_keeping_pool(void *arg)
{
    ABT_xstream self = *(ABT_xstream *)arg;
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 2, both));
}

/* Runs `body` on the ES that serves `shared`. */
static void run_there(void (*body)(void *), void *arg)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(shared, body, arg, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared));
    both[0] = priv;
    both[1] = shared;

    /* Before any ES holds it, anyone may push: the ULT waits for ES 1. */
    ABT_thread first;
    CHECK_OK(ABT_thread_create(priv, create_into_own_pool, NULL, ABT_THREAD_ATTR_NULL, &first));
    ABT_xstream es1, es2 = ABT_XSTREAM_NULL, other;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, both, ABT_SCHED_CONFIG_NULL, &es1));
    CHECK_OK(ABT_thread_free(&first));

    /* A second ES: refused, by each way of making one. */
    es2 = (ABT_xstream)(void *)1;
    CHECK_ERR(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, both, ABT_SCHED_CONFIG_NULL, &es2),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK(es2 == ABT_XSTREAM_NULL);
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, both, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_ERR(ABT_xstream_create(sched, &es2), ABT_ERR_INV_POOL_ACCESS);
    CHECK_ERR(ABT_xstream_create_with_rank(sched, 7, &es2), ABT_ERR_INV_POOL_ACCESS);

    /* A replacement on another ES: refused, on a terminated ES and on the
     * running primary ES alike; the scheduler stays the caller's. */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &other));
    CHECK_OK(ABT_xstream_join(other));
    CHECK_ERR(ABT_xstream_set_main_sched(other, sched), ABT_ERR_INV_POOL_ACCESS);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(other, ABT_SCHED_BASIC, 1, &priv),
              ABT_ERR_INV_POOL_ACCESS);
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_ERR(ABT_xstream_set_main_sched(primary, sched), ABT_ERR_INV_POOL_ACCESS);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(primary, ABT_SCHED_BASIC, 1, &priv),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK_OK(ABT_xstream_free(&other));

    /* ES 1 is still the home: its ULTs create into the pool, others may not. */
    run_there(create_into_own_pool, NULL);
    CHECK_ERR(ABT_thread_create(priv, count, NULL, ABT_THREAD_ATTR_NULL, NULL),
              ABT_ERR_INV_POOL_ACCESS);

    /* A new scheduler of ES 1 with the same pool keeps it home there. */
    run_there(replace_keeping_pool, &es1);
    run_there(create_into_own_pool, NULL);
    CHECK_ERR(ABT_xstream_create(sched, &es2), ABT_ERR_INV_POOL_ACCESS);

    /* Once ES 1 is freed, another ES may have the pool. */
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_EQ(atomic_load(&ran), 3);
    CHECK_OK(ABT_xstream_create(sched, &es2));
    run_there(create_into_own_pool, NULL);
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_EQ(atomic_load(&ran), 4);

    CHECK_OK(ABT_pool_free(&priv));
    CHECK_OK(ABT_pool_free(&shared));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
