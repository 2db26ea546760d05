/* A ULT whose pool is ABT_POOL_ACCESS_PRIV waits in ABT_cond_timedwait by
 * polling: it yields until it is signalled or its deadline passes
 * (REFERENCE, "Waiting"). A cancel that comes meanwhile must not end it at
 * one of those yields: "a unit waiting in a synchronization object finishes
 * that wait first" (REFERENCE, ABT_thread_cancel). Its node is on its stack
 * and in the condition's queue. Here the waiter, cancelled while it polls,
 * is then signalled: its wait returns ABT_SUCCESS, it gets back to its own
 * code, and the condition can be freed (no waiter left). Mutation testing
 * (switch.c, serve_requests' test of in_wait) found nothing checking the
 * polling case; test_regress_sync_cancel_timedwait uses shared pools. */
#include "bb_test.h"

#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define NOT_RETURNED (-12345)

static ABT_mutex mtx;
static ABT_cond cond;
static atomic_int entered, wait_ret = NOT_RETURNED;

static void waiter(void *arg)
{
    (void)arg;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10; /* far: only the signal ends the wait */
    CHECK_OK(ABT_mutex_lock(mtx));
    atomic_store(&entered, 1);
    int r = ABT_cond_timedwait(cond, mtx, &deadline);
    CHECK_OK(ABT_mutex_unlock(mtx));
    atomic_store(&wait_ret, r);
    ABT_thread_yield(); /* the cancel may end it here */
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    for (int round = 0; round < 5; round++) {
        atomic_store(&entered, 0);
        atomic_store(&wait_ret, NOT_RETURNED);
        CHECK_OK(ABT_mutex_create(&mtx));
        CHECK_OK(ABT_cond_create(&cond));
        ABT_pool p; /* private; homeless until ES1 starts: we may create into it */
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &p));
        ABT_thread w;
        CHECK_OK(ABT_thread_create(p, waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
        ABT_xstream es1;
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es1));
        while (!atomic_load(&entered))
            sched_yield();
        struct timespec ms = {0, 20 * 1000 * 1000};
        nanosleep(&ms, NULL); /* it polls: many yields */
        CHECK_OK(ABT_thread_cancel(w));
        nanosleep(&ms, NULL); /* more of them, with the cancel pending */
        CHECK_EQ(atomic_load(&wait_ret), NOT_RETURNED); /* still waiting */
        CHECK_OK(ABT_mutex_lock(mtx));
        CHECK_OK(ABT_cond_signal(cond));
        CHECK_OK(ABT_mutex_unlock(mtx));
        CHECK_OK(ABT_thread_free(&w));
        CHECK_EQ(atomic_load(&wait_ret), ABT_SUCCESS);
        CHECK_OK(ABT_cond_free(&cond));
        CHECK_OK(ABT_mutex_free(&mtx));
        CHECK_OK(ABT_xstream_free(&es1));
        if (bb_test_failures)
            break;
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
