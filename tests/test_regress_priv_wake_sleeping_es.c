/* A ULT of ES1's private pool runs for a while on ES2, whose BASIC_WAIT
 * scheduler serves only a shared pool: a ULT there resumes it with
 * ABT_self_resume_yield_to. On ES2 it blocks on a mutex that the primary ULT
 * holds, and ES2, idle, goes to sleep. When the primary unlocks, the ULT is
 * handed to ES2 (the ES it last ran on) to go back into its private pool,
 * as a migration does. ES2 used to get it in its inbox without being woken,
 * so the ULT stayed there, never ready, and the join below hung. */
#include "wake_elsewhere_util.h"

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_mutex_lock(mutex));
    ABT_xstream es1 = start_target_on_new_es();
    ABT_pool shared2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared2));
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &shared2, ABT_SCHED_CONFIG_NULL, &es2));
    move_target_to(shared2, 200 * 1000); /* it blocks on ES2, which falls asleep */

    CHECK_OK(ABT_mutex_unlock(mutex));
    until_target_done();
    CHECK_OK(ABT_thread_free(&target));

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_join(es2));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
