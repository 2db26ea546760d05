/* A BASIC_WAIT scheduler asked to finish sleeps until its pool's blocked
 * units (and moves to it still pending) have come back. The wake-up that
 * says the count dropped must reach that scheduler even when callers of
 * ABT_pool_pop_wait_thread sleep on the same pool, registered after it (so
 * first in line):
 *  1. two poppers, and the last blocked ULT is woken into the pool: the
 *     unit's push rings one popper, which takes it; the second ring, for
 *     the count at zero, went to the other popper, which found nothing and
 *     slept again, and ABT_xstream_join never returned;
 *  2. one popper, and a move to the pool pending for a ULT that ends
 *     without moving: the uncount's only ring went to the popper. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_pool wait_pool, main_pool;
static ABT_eventual go;
static atomic_int waited, finished, spin_release;
static ABT_thread popped[2];
static int pop_ret[2];

static void blocker(void *arg)
{
    (void)arg;
    atomic_store(&waited, 1);
    ABT_eventual_wait(go, NULL);
    atomic_store(&finished, 1);
}

/* Runs on another ES until released, without yielding: a move asked for
 * meanwhile stays pending and is dropped when it ends. */
static void spinner(void *arg)
{
    (void)arg;
    atomic_store(&waited, 1);
    while (!atomic_load(&spin_release))
        ;
    atomic_store(&finished, 1);
}

static void *popper(void *arg)
{
    int i = (int)(long)arg;
    pop_ret[i] = ABT_pool_pop_wait_thread(wait_pool, &popped[i], 2.0);
    return NULL;
}

static void *releaser(void *arg)
{
    usleep(200000); /* the poppers and the joiner wait by then */
    if (arg)
        ABT_eventual_set(go, NULL, 0);
    else
        atomic_store(&spin_release, 1);
    return NULL;
}

/* Starts `npoppers` poppers on `wait_pool`, one after the other, then joins
 * `es` (whose scheduler sleeps on that pool) while `release` ends the wait. */
static void join_with_poppers(ABT_xstream es, int npoppers, void *release)
{
    pthread_t pt[2], rt;
    for (long i = 0; i < npoppers; i++) {
        popped[i] = ABT_THREAD_NULL;
        pop_ret[i] = -1;
        CHECK_EQ(pthread_create(&pt[i], NULL, popper, (void *)i), 0);
        usleep(50000);
    }
    CHECK_EQ(pthread_create(&rt, NULL, releaser, release), 0);
    double t0 = ABT_get_wtime();
    CHECK_OK(ABT_xstream_join(es)); /* hung here */
    if (!bb_test_is_slow_run()) /* there, 1.5 s may pass anyway */
        CHECK(ABT_get_wtime() - t0 < 1.5); /* not only when the poppers gave up */
    CHECK_EQ(pthread_join(rt, NULL), 0);
    for (int i = 0; i < npoppers; i++) {
        CHECK_EQ(pthread_join(pt[i], NULL), 0);
        CHECK_OK(pop_ret[i]);
        if (popped[i] != ABT_THREAD_NULL)
            CHECK_OK(ABT_pool_push_thread(main_pool, popped[i])); /* it ends here */
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));

    /* 1: a blocked ULT comes back, two poppers wait */
    ABT_xstream es;
    CHECK_OK(ABT_eventual_create(0, &go));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                   &wait_pool));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &wait_pool,
                                      ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(wait_pool, blocker, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&waited))
        ABT_thread_yield();
    usleep(50000); /* the ES sleeps, its blocker counted */
    join_with_poppers(es, 2, go);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&finished), 1);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&wait_pool));
    CHECK_OK(ABT_eventual_free(&go));

    /* 2: a move to the pool is dropped, one popper waits */
    atomic_store(&waited, 0);
    atomic_store(&finished, 0);
    ABT_xstream other;
    ABT_pool other_pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                   &wait_pool));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &wait_pool,
                                      ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &other));
    CHECK_OK(ABT_xstream_get_main_pools(other, 1, &other_pool));
    CHECK_OK(ABT_thread_create(other_pool, spinner, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&waited))
        ABT_thread_yield();
    CHECK_OK(ABT_thread_migrate_to_pool(t, wait_pool)); /* pending: it runs */
    usleep(50000); /* the ES sleeps, the move counted */
    join_with_poppers(es, 1, NULL);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&finished), 1);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_xstream_free(&other));
    CHECK_OK(ABT_pool_free(&wait_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
