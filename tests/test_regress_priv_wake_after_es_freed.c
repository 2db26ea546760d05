/*
 * A ULT of a private pool, blocked there when its ES stopped
 * (ABT_xstream_cancel) and still blocked when that ES was freed, is woken
 * afterwards from another ES: by ABT_eventual_set, by ABT_thread_resume,
 * before or after the pool has been given to a new ES. It goes back into
 * its pool, and the ES that then serves the pool runs it.
 *
 * Regression: the waker handed the ULT to the ES it had last run on,
 * through that ES's inbox, reading the freed ES (AddressSanitizer:
 * heap-use-after-free in hand_to_es).
 */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_eventual ev;
static atomic_int suspended, finished;

static void waits(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_wait(ev, NULL));
    atomic_fetch_add(&finished, 1);
}

static void suspends(void *arg)
{
    (void)arg;
    atomic_store(&suspended, 1);
    CHECK_OK(ABT_self_suspend());
    atomic_fetch_add(&finished, 1);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (state != ABT_THREAD_STATE_BLOCKED)
        CHECK_OK(ABT_thread_get_state(t, &state));
}

static ABT_xstream es_on(ABT_pool pool)
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    return es;
}

/* `body` blocks in a private pool of an ES that is then cancelled and
 * freed; `wake` wakes it, before or after a new ES takes the pool. */
static void run_case(void (*body)(void *), int wake_after_new_es)
{
    ABT_pool pool;
    ABT_thread t;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &pool));
    CHECK_OK(ABT_eventual_create(0, &ev));
    atomic_store(&suspended, 0);
    atomic_store(&finished, 0);
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_xstream es = es_on(pool);
    wait_blocked(t);
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK_OK(ABT_xstream_free(&es));

    ABT_xstream next = ABT_XSTREAM_NULL;
    if (wake_after_new_es)
        next = es_on(pool);
    if (body == suspends)
        CHECK_OK(ABT_thread_resume(t));
    else
        CHECK_OK(ABT_eventual_set(ev, NULL, 0));
    if (!wake_after_new_es)
        next = es_on(pool);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&finished), 1);
    CHECK_OK(ABT_xstream_free(&next));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_eventual_free(&ev));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    for (int after = 0; after < 2; after++) {
        run_case(waits, after);
        run_case(suspends, after);
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
