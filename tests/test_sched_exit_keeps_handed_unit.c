/* A scheduler loop that stops at once (ABT_xstream_cancel) while it holds a
 * unit handed to it must put that unit back into its pool, not drop it.
 *
 * ES 1 runs the basic scheduler over a user-defined FIFO pool. A ULT there
 * creates a tasklet in the same pool, cancels ES 1 and yields. The direct
 * yield through a user pool pushes the ULT, pops the tasklet, and, a tasklet
 * not being a ULT it can switch to, hands it to the scheduler, whose loop
 * then sees the cancel and stops. Both the ULT and the tasklet must still be
 * in the pool (its size is 2); a revive of ES 1 then runs both. (With the
 * direct yield off, the scheduler pops the tasklet itself: the test then
 * checks less, and passes.) */
#include "pool_user_util.h"

static ABT_xstream es;
static ABT_pool upool;
static ABT_task task;
static atomic_int ult_done, task_done;

static void task_fn(void *arg)
{
    (void)arg;
    atomic_store(&task_done, 1);
}

static void ult_fn(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_task_create(upool, task_fn, NULL, &task));
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK_OK(ABT_thread_yield());
    atomic_store(&ult_done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    upool = up_new_pool_with(NULL, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &upool, ABT_SCHED_CONFIG_NULL, &es));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(upool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_xstream_join(es)); /* it stops for the cancel */
    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(es, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_TERMINATED);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(upool, &size));
    if (!atomic_load(&ult_done)) {
        /* Stopped with the ULT yielded; the tasklet ran or waits with it. */
        CHECK_EQ(size, 1 + !atomic_load(&task_done));
    }
    CHECK_OK(ABT_xstream_revive(es));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(atomic_load(&ult_done), 1);
    CHECK_EQ(atomic_load(&task_done), 1);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&upool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
