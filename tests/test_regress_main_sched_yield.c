/* An ES's main scheduler has no parent to switch to: from a user
 * scheduler's run(), ABT_self_yield and ABT_self_suspend return
 * ABT_ERR_INV_THREAD, ABT_thread_yield does nothing (as Argobots' old yield
 * calls do when the caller cannot yield), and ABT_xstream_exit asks the ES
 * to stop. None of them crashes. Also: join_many/free_many with a NULL
 * list and a positive count return ABT_ERR_INV_ARG. */
#include "bb_test.h"

static int results[4] = {-1, -1, -1, -1};

static void run(ABT_sched sched)
{
    results[0] = ABT_self_yield();
    results[1] = ABT_self_suspend();
    results[2] = ABT_thread_yield();
    results[3] = ABT_xstream_exit();
    for (;;) { /* wait for the exit request, then leave */
        ABT_bool stop;
        ABT_sched_has_to_stop(sched, &stop);
        if (stop)
            break;
        ABT_xstream_check_events(sched);
    }
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = run};
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(sched, &es));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_EQ(results[0], ABT_ERR_INV_THREAD);
    CHECK_EQ(results[1], ABT_ERR_INV_THREAD);
    CHECK_EQ(results[2], ABT_SUCCESS);
    CHECK_EQ(results[3], ABT_SUCCESS);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&sched)); /* not automatic: ours to free */
    CHECK_ERR(ABT_thread_join_many(2, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_free_many(2, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_thread_join_many(0, NULL));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
