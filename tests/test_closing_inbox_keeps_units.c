/* A blocked ULT whose pool is private and has no home is made ready
 * through the inbox of the ES it last ran on (switch.c, hand_to_last_es),
 * which takes it in at its next event check. If that ES stops first (here
 * ES2's user-defined scheduler, which looks at ABT_sched_has_to_stop before
 * it calls ABT_xstream_check_events, is cancelled while a long ULT holds
 * ES2 and the woken ULT waits in ES2's inbox), closing the inbox must
 * still make the ULT ready: it goes back into its private pool, where this
 * test finds it after ES2 has terminated. Mutation testing (switch.c, bb_xstream_close_inbox) found
 * nothing checking units left in a closing inbox. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mutex;
static ABT_thread target;
static atomic_int suspended, waiting_for_mutex, done, busy, release_busy;

static void busy_body(void *arg)
{
    (void)arg;
    atomic_store(&busy, 1);
    while (!atomic_load(&release_busy))
        ; /* holds ES2: no event check meanwhile */
}

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

/* Stops before its event check, when asked to. */
static void sched_run(ABT_sched sched)
{
    ABT_pool pool;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (;;) {
        ABT_thread t = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL)
            CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
        ABT_bool stop = ABT_FALSE;
        CHECK_OK(ABT_sched_has_to_stop(sched, &stop));
        if (stop)
            break;
        CHECK_OK(ABT_xstream_check_events(sched));
    }
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
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared2));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = sched_run};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &shared2, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create(sched, &es2));
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
    usleep(100 * 1000); /* the target blocks on ES2 */
    ABT_thread b;
    CHECK_OK(ABT_thread_create(shared2, busy_body, NULL, ABT_THREAD_ATTR_NULL, &b));
    while (!atomic_load(&busy))
        usleep(1000);

    CHECK_OK(ABT_mutex_unlock(mutex)); /* hands it to ES2's inbox */
    CHECK_OK(ABT_xstream_cancel(es2)); /* ES2 stops at its next check */
    atomic_store(&release_busy, 1);
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_xstream_join(es2));
    size_t n = 0;
    CHECK_OK(ABT_pool_get_size(priv, &n));
    CHECK_EQ(n, 1); /* back in its pool */
    t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(priv, &t));
    CHECK(t == target);
    if (t != ABT_THREAD_NULL) {
        CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
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
