/* A blocked ULT whose pool is private and has no home is made ready
 * through the inbox of the ES it last ran on (switch.c, hand_to_last_es),
 * which takes it in at its next event check. If that ES stops first (here
 * ES2's user-defined scheduler, which looks at ABT_sched_has_to_stop before
 * it calls ABT_xstream_check_events, is cancelled while a long ULT holds
 * ES2 and the woken ULT waits in ES2's inbox), closing the inbox must
 * still make the ULT ready: it goes back into its private pool, where this
 * test finds it after ES2 has terminated. Mutation testing (switch.c,
 * bb_xstream_close_inbox) found nothing checking units left in a closing
 * inbox. */
#include "sched_user_util.h"
#include "wake_elsewhere_util.h"

static atomic_int release_busy;

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    ABT_pool priv, shared2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared2));
    /* Its loop stops before its event check, when asked to. */
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = one_pool_sched_run};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &shared2, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create(sched, &es2));
    CHECK_OK(ABT_mutex_lock(mutex));

    start_target_here(priv); /* from its homeless private pool */
    move_target_to(shared2, 100 * 1000); /* it blocks on ES2 */
    ABT_thread b = occupy(shared2, &release_busy);

    CHECK_OK(ABT_mutex_unlock(mutex)); /* hands it to ES2's inbox */
    CHECK_OK(ABT_xstream_cancel(es2)); /* ES2 stops at its next check */
    atomic_store(&release_busy, 1);
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_xstream_join(es2));
    size_t n = 0;
    CHECK_OK(ABT_pool_get_size(priv, &n));
    CHECK_EQ(n, 1); /* back in its pool */
    ABT_thread t = schedule_next_of(priv);
    CHECK(t == target);
    if (t != ABT_THREAD_NULL) {
        CHECK(atomic_load(&done));
        CHECK_OK(ABT_thread_free(&target));
    }
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_pool_free(&priv));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
