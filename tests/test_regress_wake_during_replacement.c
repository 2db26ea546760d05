/* A ULT of ES1's private pool runs for a while on ES2 (resumed there by
 * ABT_self_resume_yield_to) and blocks on a mutex that the primary ULT
 * holds. On ES2, a ULT joins it, and another replaces ES2's BASIC_WAIT
 * scheduler by one over another pool: the old one retires only once the
 * joiner is back in its pool and has run, and, idle meanwhile, it sleeps. When the primary unlocks, the ULT is handed
 * to ES2 (the ES it last ran on) through ES2's inbox. The waker used to
 * ring only ES2's new main scheduler, which had not started: the retiring
 * one slept on, the ULT stayed in the inbox, and everything hung. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mutex;
static ABT_thread target, joiner, replacer;
static ABT_pool shared2, shared3;
static atomic_int suspended, waiting_for_mutex, replaced;

static void target_body(void *arg)
{
    (void)arg;
    atomic_store(&suspended, 1);
    CHECK_OK(ABT_self_suspend());
    atomic_store(&waiting_for_mutex, 1);
    CHECK_OK(ABT_mutex_lock(mutex)); /* on ES2 */
    CHECK_OK(ABT_mutex_unlock(mutex));
}

static void create_target(void *arg)
{
    CHECK_OK(ABT_thread_create((ABT_pool)arg, target_body, NULL, ABT_THREAD_ATTR_NULL, &target));
}

static void wait_until_blocked(ABT_thread thread, int sleep_us)
{
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    for (;;) {
        CHECK_OK(ABT_thread_get_state(thread, &state));
        if (state == ABT_THREAD_STATE_BLOCKED)
            return;
        if (sleep_us)
            usleep((useconds_t)sleep_us);
        else
            CHECK_OK(ABT_self_yield());
    }
}

static void resumer_body(void *arg)
{
    (void)arg;
    while (!atomic_load(&suspended))
        CHECK_OK(ABT_self_yield());
    wait_until_blocked(target, 0);
    CHECK_OK(ABT_self_resume_yield_to(target));
}

static void joiner_body(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_join(target));
}

static void replacer_body(void *arg)
{
    (void)arg;
    ABT_xstream self;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC_WAIT, 1, &shared3));
    atomic_store(&replaced, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    ABT_pool priv1, shared1;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared2));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &shared3));
    ABT_pool pools1[2] = {shared1, priv1};
    ABT_xstream es1, es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools1, ABT_SCHED_CONFIG_NULL, &es1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &shared2, ABT_SCHED_CONFIG_NULL,
                                      &es2));
    CHECK_OK(ABT_mutex_lock(mutex));

    ABT_thread helper;
    CHECK_OK(ABT_thread_create(shared1, create_target, priv1, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_free(&helper));
    CHECK_OK(ABT_thread_create(shared2, resumer_body, NULL, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_free(&helper));
    while (!atomic_load(&waiting_for_mutex))
        usleep(1000);
    wait_until_blocked(target, 1000); /* on the mutex, on ES2 */

    CHECK_OK(ABT_thread_create(shared2, joiner_body, NULL, ABT_THREAD_ATTR_NULL, &joiner));
    wait_until_blocked(joiner, 1000);
    CHECK_OK(ABT_thread_create(shared2, replacer_body, NULL, ABT_THREAD_ATTR_NULL, &replacer));
    wait_until_blocked(replacer, 1000); /* parked until the old scheduler retires */
    usleep(200 * 1000);                 /* which, idle, falls asleep */
    CHECK(!atomic_load(&replaced));

    CHECK_OK(ABT_mutex_unlock(mutex));
    CHECK_OK(ABT_thread_join(replacer)); /* hung here */
    CHECK(atomic_load(&replaced));
    CHECK_OK(ABT_thread_free(&replacer));
    CHECK_OK(ABT_thread_free(&joiner));
    CHECK_OK(ABT_thread_free(&target));

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_join(es2));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&shared3));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
