/* An idle (sleeping) BASIC_WAIT ES still answers stop requests promptly
 * (bounded at 1 s): ABT_xstream_cancel, ABT_sched_finish on its main
 * scheduler, and ABT_xstream_exit called by a ULT pushed to it all make it
 * TERMINATED; it can then be freed (or revived and still wake on a push).
 * With a PRIV pool among its pools it does not sleep but polls: work
 * pushed from the primary ES into its shared pool runs, work a ULT adds to
 * the PRIV pool runs, and a join returns. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static atomic_int flag, count;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int wait_terminated(ABT_xstream es, double limit)
{
    double end = now() + limit;
    ABT_xstream_state st = ABT_XSTREAM_STATE_RUNNING;
    while (now() < end) {
        ABT_xstream_get_state(es, &st);
        if (st == ABT_XSTREAM_STATE_TERMINATED)
            return 1;
        usleep(1000);
    }
    return 0;
}

static int wait_count(int value, double limit)
{
    double end = now() + limit;
    while (atomic_load(&count) < value && now() < end)
        usleep(1000);
    return atomic_load(&count) >= value;
}

static void bump(void *arg)
{
    (void)arg;
    atomic_fetch_add(&count, 1);
}

static void exiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&count, 1);
    ABT_xstream_exit();
    atomic_store(&flag, 99); /* never reached */
}

/* Runs on the PRIV-pool ES: adds work to its own PRIV pool. */
static ABT_pool priv_pool;
static void spawner(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++) {
        ABT_thread_create(priv_pool, bump, NULL, ABT_THREAD_ATTR_NULL, NULL);
        ABT_thread_yield();
    }
    atomic_fetch_add(&count, 1);
}

static ABT_xstream idle_es(ABT_pool *pool_out)
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 0, NULL, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, pool_out));
    /* Make sure it is up and then let it fall asleep. */
    atomic_store(&count, 0);
    CHECK_OK(ABT_thread_create(*pool_out, bump, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK(wait_count(1, 2.0));
    usleep(30 * 1000);
    return es;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;

    /* cancel */
    ABT_xstream es = idle_es(&pool);
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK(wait_terminated(es, 1.0));
    CHECK_OK(ABT_xstream_free(&es));

    /* finish on the main scheduler */
    es = idle_es(&pool);
    ABT_sched s;
    CHECK_OK(ABT_xstream_get_main_sched(es, &s));
    CHECK_OK(ABT_sched_finish(s));
    CHECK(wait_terminated(es, 1.0));
    /* Revived, it sleeps again and still wakes on a push. */
    CHECK_OK(ABT_xstream_revive(es));
    usleep(30 * 1000);
    atomic_store(&count, 0);
    CHECK_OK(ABT_thread_create(pool, bump, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK(wait_count(1, 2.0));
    double t0 = now();
    CHECK_OK(ABT_xstream_free(&es));
    CHECK(now() - t0 < 1.0);

    /* exit from a ULT on it */
    es = idle_es(&pool);
    atomic_store(&count, 0);
    CHECK_OK(ABT_thread_create(pool, exiter, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK(wait_count(1, 2.0));
    CHECK(wait_terminated(es, 1.0));
    CHECK_EQ(atomic_load(&flag), 0);
    CHECK_OK(ABT_xstream_free(&es));

    /* With a PRIV pool: polls, but works. */
    ABT_pool shared;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv_pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared));
    atomic_store(&count, 0);
    /* Filled before the ES starts: nobody else touches the PRIV pool. */
    CHECK_OK(ABT_thread_create(priv_pool, spawner, NULL, ABT_THREAD_ATTR_NULL, NULL));
    ABT_pool both[2] = {priv_pool, shared};
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 2, both, ABT_SCHED_CONFIG_NULL, &es));
    CHECK(wait_count(6, 2.0)); /* the spawner and its 5 units */
    usleep(30 * 1000);
    CHECK_OK(ABT_thread_create(shared, bump, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK(wait_count(7, 2.0));
    usleep(30 * 1000);
    CHECK_OK(ABT_thread_create(shared, bump, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK(wait_count(8, 2.0));
    t0 = now();
    CHECK_OK(ABT_xstream_join(es));
    CHECK(now() - t0 < 1.0);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&count), 8);
    CHECK_OK(ABT_pool_free(&priv_pool));
    CHECK_OK(ABT_pool_free(&shared));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
