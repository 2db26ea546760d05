/* A ULT woken back into a shared pool wakes two sleepers of that pool when
 * it was the last blocked unit the pool counted: the pool's BASIC_WAIT
 * scheduler, which has been asked to finish and sleeps until nothing is
 * left to come, and an external thread in ABT_pool_pop_wait_thread, which
 * registered later and so is rung first. The external thread takes the
 * ULT; the scheduler must still see the pool drained and finish, or
 * ABT_xstream_join never returns. (Push and uncount share one hold of the
 * pool's lock: the second wake must survive that.) */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_pool shared_pool, main_pool;
static ABT_eventual go;
static atomic_int waited, finished;
static ABT_thread popped = ABT_THREAD_NULL;
static int pop_ret = -1;

static void blocker(void *arg)
{
    (void)arg;
    atomic_store(&waited, 1);
    ABT_eventual_wait(go, NULL);
    atomic_store(&finished, 1);
}

/* Registers as a sleeper of the pool after the scheduler did. */
static void *popper(void *arg)
{
    (void)arg;
    pop_ret = ABT_pool_pop_wait_thread(shared_pool, &popped, 3.0);
    return NULL;
}

/* Ends the blocker's wait once the popper and the joiner sleep. */
static void *setter(void *arg)
{
    (void)arg;
    usleep(200000);
    ABT_eventual_set(go, NULL, 0);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self, es;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &main_pool));
    CHECK_OK(ABT_eventual_create(0, &go));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                   &shared_pool));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &shared_pool,
                                      ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(shared_pool, blocker, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&waited))
        ABT_thread_yield();
    usleep(50000); /* the ES goes to sleep, its blocker counted */

    pthread_t popper_thread, setter_thread;
    CHECK_EQ(pthread_create(&popper_thread, NULL, popper, NULL), 0);
    usleep(50000); /* the popper sleeps too, first in line now */
    CHECK_EQ(pthread_create(&setter_thread, NULL, setter, NULL), 0);
    CHECK_OK(ABT_xstream_join(es)); /* hung here: the scheduler slept on */

    CHECK_EQ(pthread_join(popper_thread, NULL), 0);
    CHECK_EQ(pthread_join(setter_thread, NULL), 0);
    CHECK_OK(pop_ret);
    if (popped != ABT_THREAD_NULL) {
        CHECK(popped == t);
        CHECK_EQ(atomic_load(&finished), 0);
        CHECK_OK(ABT_pool_push_thread(main_pool, popped)); /* it ends here instead */
    } else {
        /* Slow runs (sanitizers, a loaded machine) may not line the two
         * sleepers up as planned: the scheduler got the ULT. */
        CHECK_EQ(atomic_load(&finished), 1);
    }
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&finished), 1);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&shared_pool));
    CHECK_OK(ABT_eventual_free(&go));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
