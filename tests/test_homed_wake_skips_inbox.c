/* A blocked ULT of a private pool that has a home (ES1, whose main
 * scheduler holds it) goes back to that pool through the pool's incoming
 * stack when another ES or thread wakes it, whatever ES it last ran on
 * (switch.c, hand_to_last_es: only homeless pools use the inbox of the last
 * ES). Here it last ran on ES2 (a hand-over: ABT_self_resume_yield_to), and
 * ES2 is busy with a ULT that spins until the woken ULT has finished, which
 * only ES1 can make happen: through ES2's inbox it would wait for an event
 * check of ES2 that never comes. Mutation testing (switch.c, the test of the
 * home in hand_to_last_es) found nothing checking it. */
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
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared2, ABT_SCHED_CONFIG_NULL, &es2));
    move_target_to(shared2, 100 * 1000); /* it blocks on ES2 */
    ABT_thread b = occupy(shared2, &done); /* ES2 is busy until the target ends */

    CHECK_OK(ABT_mutex_unlock(mutex));
    until_target_done();
    CHECK_OK(ABT_thread_free(&target));
    CHECK_OK(ABT_thread_free(&b));

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_join(es2));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
