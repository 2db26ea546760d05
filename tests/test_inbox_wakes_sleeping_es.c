/* A blocked ULT whose pool is private and has no home (no ES's main
 * scheduler holds it) is made ready through the inbox of the ES it last ran
 * on, when another ES or thread wakes it (switch.c, hand_to_last_es). That
 * ES may be asleep: here ES2, whose BASIC_WAIT scheduler serves only a
 * shared pool, ran the ULT by a hand-over (ABT_self_resume_yield_to) and
 * fell asleep once it blocked on a mutex. The inbox must ring ES2, which
 * then puts the ULT back into its private pool, where this test finds it.
 * test_regress_priv_wake_sleeping_es covered this before private pools with
 * a home got their own incoming stack; its pool has a home now, and
 * mutation testing found nothing left that needs the ring (hand_to_es). */
#include "wake_elsewhere_util.h"

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    ABT_pool priv, shared2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &priv));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared2));
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &shared2, ABT_SCHED_CONFIG_NULL,
                                      &es2));
    CHECK_OK(ABT_mutex_lock(mutex));

    start_target_here(priv); /* from its homeless private pool */
    move_target_to(shared2, 200 * 1000); /* it blocks on ES2, which falls asleep */

    CHECK_OK(ABT_mutex_unlock(mutex)); /* hands it to ES2's inbox */
    size_t n = 0;
    for (int i = 0; i < 5000 && n == 0; i++) {
        CHECK_OK(ABT_pool_get_size(priv, &n));
        if (n == 0)
            usleep(1000);
    }
    CHECK_EQ(n, 1); /* ES2 woke and put it back */
    (void)schedule_next_of(priv);
    CHECK_OK(ABT_xstream_join(es2)); /* rings ES2 in any case */
    if (!atomic_load(&done)) /* only now put back: run it to its end */
        (void)schedule_next_of(priv);
    CHECK(atomic_load(&done));
    CHECK_OK(ABT_thread_free(&target));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&priv));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
