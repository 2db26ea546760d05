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
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mutex;
static ABT_thread target;
static atomic_int suspended, waiting_for_mutex, done;

static void target_body(void *arg)
{
    (void)arg;
    atomic_store(&suspended, 1);
    CHECK_OK(ABT_self_suspend()); /* on the primary ES */
    atomic_store(&waiting_for_mutex, 1);
    CHECK_OK(ABT_mutex_lock(mutex)); /* on ES2 */
    CHECK_OK(ABT_mutex_unlock(mutex));
    atomic_store(&done, 1);
}

static void resumer(void *arg)
{
    (void)arg;
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (!atomic_load(&suspended) || state != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(target, &state));
        CHECK_OK(ABT_self_yield());
    }
    CHECK_OK(ABT_self_resume_yield_to(target));
}

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

    /* The target starts here, from its homeless private pool, and suspends. */
    CHECK_OK(ABT_thread_create(priv, target_body, NULL, ABT_THREAD_ATTR_NULL, &target));
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(priv, &t));
    CHECK(t == target);
    CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
    CHECK(atomic_load(&suspended));

    ABT_thread helper;
    CHECK_OK(ABT_thread_create(shared2, resumer, NULL, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_free(&helper));
    while (!atomic_load(&waiting_for_mutex))
        usleep(1000);
    usleep(200 * 1000); /* the target blocks on ES2, which falls asleep */

    CHECK_OK(ABT_mutex_unlock(mutex)); /* hands it to ES2's inbox */
    size_t n = 0;
    for (int i = 0; i < 5000 && n == 0; i++) {
        CHECK_OK(ABT_pool_get_size(priv, &n));
        if (n == 0)
            usleep(1000);
    }
    CHECK_EQ(n, 1); /* ES2 woke and put it back */
    t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(priv, &t));
    if (t != ABT_THREAD_NULL)
        CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
    CHECK_OK(ABT_xstream_join(es2)); /* rings ES2 in any case */
    if (!atomic_load(&done)) { /* only now put back: run it to its end */
        t = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_thread(priv, &t));
        if (t != ABT_THREAD_NULL)
            CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
    }
    CHECK(atomic_load(&done));
    CHECK_OK(ABT_thread_free(&target));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&priv));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
