/* Two sleeping BASIC_WAIT ESs serve the same two pools, and one unit is
 * pushed into each pool: each push must wake a different ES. A sleeping
 * scheduler waits in all its pools at once; the second push used to find
 * the first ES's node in its pool still armed (rung, but not yet awake) and
 * ring it again, while the other ES slept on with a unit waiting. Here the
 * two ULTs wait for each other while holding their ESs, so they meet only
 * if both ESs run at once.
 *
 * Each round: both ESs fall asleep (a pause), then the main ULT creates one
 * ULT into each pool. A ULT that has not met the other within MEET_S gives
 * up and the round fails. */
#include "bb_test.h"
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define NUM_ES 2
#define ROUNDS 10
#define MEET_S 2.0

static atomic_int arrived, missed;

static void meet(void *arg)
{
    (void)arg;
    atomic_fetch_add(&arrived, 1);
    double start = ABT_get_wtime();
    while (atomic_load(&arrived) < NUM_ES) { /* holds the ES */
        if (ABT_get_wtime() - start > MEET_S) {
            atomic_fetch_add(&missed, 1);
            return;
        }
        sched_yield();
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pools[NUM_ES];
    ABT_xstream es[NUM_ES];
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                       &pools[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, NUM_ES, pools,
                                          ABT_SCHED_CONFIG_NULL, &es[i]));
    for (int round = 0; round < ROUNDS; round++) {
        struct timespec pause = {0, 20000000}; /* both ESs go to sleep */
        nanosleep(&pause, NULL);
        atomic_store(&arrived, 0);
        ABT_thread t[NUM_ES];
        for (int i = 0; i < NUM_ES; i++)
            CHECK_OK(ABT_thread_create(pools[i], meet, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        for (int i = 0; i < NUM_ES; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
    }
    CHECK_EQ(atomic_load(&missed), 0);
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_pool_free(&pools[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
