/* A blocked ULT of a private pool that has a home (ES1, whose main
 * scheduler holds it) goes back to that pool through the pool's incoming
 * stack when another ES or thread wakes it, whatever ES it last ran on
 * (switch.c, hand_to_last_es: only homeless pools use the inbox of the last
 * ES). Here it last ran on ES2 (a hand-over: ABT_self_resume_yield_to), and
 * ES2 is busy with a ULT that spins until the woken ULT has finished, which
 * only ES1 can make happen: through ES2's inbox it would wait for an event
 * check of ES2 that never comes. Mutation testing (switch.c, the test of the
 * home in hand_to_last_es) found nothing checking it. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mutex;
static ABT_thread target;
static atomic_int suspended, waiting_for_mutex, done, busy;

static void busy_until_done(void *arg)
{
    (void)arg;
    atomic_store(&busy, 1);
    while (!atomic_load(&done))
        ; /* holds ES2 without an event check */
}

static void target_body(void *arg)
{
    (void)arg;
    atomic_store(&suspended, 1);
    CHECK_OK(ABT_self_suspend());
    atomic_store(&waiting_for_mutex, 1);
    CHECK_OK(ABT_mutex_lock(mutex)); /* on ES2 */
    CHECK_OK(ABT_mutex_unlock(mutex));
    atomic_store(&done, 1);
}

static void create_target(void *arg)
{
    CHECK_OK(ABT_thread_create((ABT_pool)arg, target_body, NULL, ABT_THREAD_ATTR_NULL, &target));
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
    ABT_pool priv1, shared1, shared2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared2));
    ABT_pool pools1[2] = {shared1, priv1};
    ABT_xstream es1, es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools1, ABT_SCHED_CONFIG_NULL, &es1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared2, ABT_SCHED_CONFIG_NULL,
                                      &es2));
    CHECK_OK(ABT_mutex_lock(mutex));

    ABT_thread helper;
    CHECK_OK(ABT_thread_create(shared1, create_target, priv1, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_free(&helper));
    CHECK_OK(ABT_thread_create(shared2, resumer, NULL, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_free(&helper));
    while (!atomic_load(&waiting_for_mutex))
        usleep(1000);
    usleep(100 * 1000); /* the target blocks on ES2 */
    ABT_thread b;
    CHECK_OK(ABT_thread_create(shared2, busy_until_done, NULL, ABT_THREAD_ATTR_NULL, &b));
    while (!atomic_load(&busy))
        usleep(1000);

    CHECK_OK(ABT_mutex_unlock(mutex));
    for (int i = 0; i < 5000 && !atomic_load(&done); i++)
        usleep(1000);
    CHECK(atomic_load(&done));
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
