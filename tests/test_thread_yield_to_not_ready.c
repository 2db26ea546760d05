/* ABT_thread_yield_to with a target that is not waiting READY in its pool
 * (a suspended ULT, a terminated ULT): undefined in the documentation,
 * Argobots 1.2 returns ABT_SUCCESS without running the target. bobbin must
 * at least not run or wake the target: a BLOCKED target stays BLOCKED, and
 * the caller continues. */
#include "bb_test.h"

static ABT_pool pool1;
static ABT_thread sleeper, finished;
static int r_blocked = -1, r_finished = -1;
static ABT_thread_state st_after = (ABT_thread_state)-1;
static int sleeper_woke;

static void fs(void *arg)
{
    (void)arg;
    ABT_self_suspend();
    sleeper_woke = 1;
}

static void noop(void *arg)
{
    (void)arg;
}

static void caller(void *arg)
{
    (void)arg;
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        ABT_thread_yield();
        ABT_thread_get_state(sleeper, &st);
    }
    r_blocked = ABT_thread_yield_to(sleeper);
    ABT_thread_get_state(sleeper, &st_after);
    r_finished = ABT_thread_yield_to(finished);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_thread_create(pool1, noop, NULL, ABT_THREAD_ATTR_NULL, &finished));
    CHECK_OK(ABT_thread_join(finished));
    CHECK_OK(ABT_thread_create(pool1, fs, NULL, ABT_THREAD_ATTR_NULL, &sleeper));

    ABT_thread c;
    CHECK_OK(ABT_thread_create(pool1, caller, NULL, ABT_THREAD_ATTR_NULL, &c));
    CHECK_OK(ABT_thread_free(&c));
    CHECK_EQ(r_blocked, ABT_SUCCESS);
    CHECK_EQ(r_finished, ABT_SUCCESS);
    CHECK_EQ(st_after, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(sleeper_woke, 0);
    CHECK_OK(ABT_thread_resume(sleeper));
    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_EQ(sleeper_woke, 1);
    CHECK_OK(ABT_thread_free(&finished));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
