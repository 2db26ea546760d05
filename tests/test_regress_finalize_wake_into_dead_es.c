/* ABT_finalize stops every ES before it frees any pool. A ULT left waiting
 * on a cancelled ES may still be woken during the finalize: by the alarm of
 * its timed wait, or by one of the primary ES's last units; the wake puts
 * it back in its pool, which must still exist then. The finalize used to
 * free the cancelled ESs' pools first, then run the primary's last units
 * and only then stop the alarm thread: both wakes wrote into freed memory
 * (AddressSanitizer: heap-use-after-free in bb_unit_make_ready). Each case
 * parks a ULT in a condition variable on an ES, cancels the ES, leaves a
 * unit on the primary ES that outlasts the deadline or signals, and
 * finalizes. The ULT must not run on, and the condition variable can be
 * freed in the next init cycle. */
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "bb_test.h"

static ABT_mutex mutex;
static ABT_cond cond;
static atomic_int waits_ended;

static void wait_briefly(void *arg)
{
    (void)arg;
    struct timespec deadline = bb_test_realtime_in_ms(100);
    ABT_mutex_lock(mutex);
    ABT_cond_timedwait(cond, mutex, &deadline);
    ABT_mutex_unlock(mutex);
    atomic_fetch_add(&waits_ended, 1);
}

static void wait_for_signal(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mutex);
    ABT_cond_wait(cond, mutex);
    ABT_mutex_unlock(mutex);
    atomic_fetch_add(&waits_ended, 1);
}

static void outlast_deadline(void *arg)
{
    (void)arg;
    usleep(300 * 1000);
}

static void signal_cond(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mutex);
    ABT_cond_signal(cond);
    ABT_mutex_unlock(mutex);
}

/* `waiter` blocks on an ES that is then cancelled; `last` runs on the
 * primary ES during the finalize. */
static void finalize_with(void (*waiter)(void *), void (*last)(void *))
{
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_cond_create(&cond));
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread t;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (state != ABT_THREAD_STATE_BLOCKED) {
        usleep(1000);
        CHECK_OK(ABT_thread_get_state(t, &state));
    }
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK_OK(ABT_xstream_join(es));
    ABT_pool primary_pool;
    CHECK_OK(ABT_self_get_last_pool(&primary_pool));
    CHECK_OK(ABT_thread_create(primary_pool, last, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&waits_ended), 0);
    /* The finalize took the waiter out of the condition variable. */
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(30);
    finalize_with(wait_briefly, outlast_deadline);
    finalize_with(wait_for_signal, signal_cond);
    BB_TEST_END();
}
