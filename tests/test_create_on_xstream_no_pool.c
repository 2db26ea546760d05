/* ABT_thread_create_on_xstream and ABT_task_create_on_xstream into an ES
 * whose main scheduler is a user scheduler made with no pools: there is no
 * pool to create into, so both return ABT_ERR_INV_POOL with the handle
 * cleared (before the fix they read past the scheduler's empty pool array),
 * and the ES still joins and frees. */
#include "bb_test.h"

static int ran;

static void body(void *arg)
{
    (void)arg;
    ran++;
}

/* Serves its events until it is told to stop: it has nothing else to do. */
static void idle_run(ABT_sched sched)
{
    ABT_bool stop = ABT_FALSE;
    while (!stop) {
        ABT_xstream_check_events(sched);
        ABT_sched_has_to_stop(sched, &stop);
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = idle_run};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 0, NULL, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(sched, &es));

    ABT_thread t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_create_on_xstream(es, body, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_INV_POOL);
    CHECK(t == ABT_THREAD_NULL);
    ABT_task k = (ABT_task)(intptr_t)0x10;
    CHECK_ERR(ABT_task_create_on_xstream(es, body, NULL, &k), ABT_ERR_INV_POOL);
    CHECK(k == ABT_TASK_NULL);

    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_EQ(ran, 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
