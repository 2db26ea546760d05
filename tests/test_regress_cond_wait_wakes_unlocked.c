/* A condition wait gives up its mutex, and so lets the mutex's next waiter
 * in, while it holds the condition's lock (so that no signal is lost). The
 * wake of that waiter runs code that is not the library's: a THREAD_RESUME
 * tool callback, a user pool's push. It used to run under the condition's
 * lock, so a callback that signals the same condition spun for ever on a
 * lock its own caller held. The wake now comes once the condition's lock
 * is dropped. Here the callback's signal is the only one the waiter gets:
 * the wait ends only if the callback may take the lock. Both ways a caller
 * waits are covered: a ULT blocks, an external thread sleeps in the
 * kernel. */
#include <pthread.h>
#include <stdatomic.h>

#include "bb_test.h"

static ABT_mutex mutex;
static ABT_cond cond;
static ABT_xstream es;
static atomic_int signals;

static void signal_on_resume(ABT_thread thread, ABT_xstream xstream, uint64_t event,
                             ABT_tool_context context, void *arg)
{
    (void)thread;
    (void)xstream;
    (void)event;
    (void)context;
    (void)arg;
    CHECK_OK(ABT_cond_signal(cond));
    atomic_fetch_add(&signals, 1);
}

static void lock_and_unlock(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_mutex_lock(mutex));
    CHECK_OK(ABT_mutex_unlock(mutex));
}

/* Holding the mutex: a ULT on `es` queues for it, then the caller waits on
 * the condition, which lets that ULT in and so triggers the callback. */
static void wait_letting_in_a_waiter(void)
{
    ABT_pool pool;
    ABT_thread queued;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_thread_create(pool, lock_and_unlock, NULL, ABT_THREAD_ATTR_NULL, &queued));
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (state != ABT_THREAD_STATE_BLOCKED) {
        sched_yield();
        CHECK_OK(ABT_thread_get_state(queued, &state));
    }
    atomic_store(&signals, 0);
    CHECK_OK(ABT_tool_register_thread_callback(signal_on_resume, ABT_TOOL_EVENT_THREAD_RESUME,
                                               NULL));
    CHECK_OK(ABT_cond_wait(cond, mutex));
    CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_NONE, NULL));
    CHECK(atomic_load(&signals) >= 1);
    CHECK_OK(ABT_mutex_unlock(mutex));
    CHECK_OK(ABT_thread_free(&queued));
}

static void as_ult(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_mutex_lock(mutex));
    wait_letting_in_a_waiter();
}

static void *as_external_thread(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_mutex_lock(mutex));
    wait_letting_in_a_waiter();
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));

    ABT_pool pool;
    ABT_thread ult;
    CHECK_OK(ABT_self_get_last_pool(&pool));
    CHECK_OK(ABT_thread_create(pool, as_ult, NULL, ABT_THREAD_ATTR_NULL, &ult));
    CHECK_OK(ABT_thread_free(&ult));

    pthread_t external;
    CHECK_EQ(pthread_create(&external, NULL, as_external_thread, NULL), 0);
    CHECK_EQ(pthread_join(external, NULL), 0);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
