/* Regression (review finding on set_main_sched): a second
 * ABT_xstream_set_main_sched on an ES whose first replacement is still under
 * way (the old scheduler is draining its pools) wins, as in Argobots: both
 * calls succeed, the pending scheduler is dropped without running, and no
 * scheduler or pool is freed while someone still uses it (run under ASan to
 * see the latter).
 *
 * Scenario: two ULTs r1, r2 in the main pool of a secondary ES wait for a
 * go flag (yielding, so both are queued there), then each replaces the ES's
 * main scheduler. The first caller is parked until the old scheduler has
 * drained its pool; the old scheduler then runs the second caller, whose
 * call comes while the first replacement is pending. (The go flag makes
 * sure both are queued before either call: otherwise the old scheduler
 * could finish with its automatic pool before the second ULT is even
 * created in it.)
 * Round 1: automatic schedulers (ABT_xstream_set_main_sched_basic): the
 * dropped one takes its automatic pool along, where the first caller had
 * been waiting.
 * Round 2: user-owned (non-automatic) schedulers and pools; afterwards the
 * user frees the replaced scheduler, the dropped one and the winner.
 *
 * What once went wrong: dropping the pending scheduler and resuming its
 * waiter freed schedulers and pools that were still in use (use-after-free,
 * crash or hang); the waiter now moves to the winner's pool first. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_xstream es;
static atomic_int go;
static int ret[2];
static ABT_sched user_sched[2]; /* round 2: what r1 / r2 install */
static ABT_xstream after_xs[2];
static atomic_int work_done;

static void replacer(void *arg)
{
    long i = (long)arg;
    while (!atomic_load(&go))
        ABT_thread_yield();
    if (user_sched[i] == ABT_SCHED_NULL)
        ret[i] = ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 0, NULL);
    else
        ret[i] = ABT_xstream_set_main_sched(es, user_sched[i]);
    ABT_self_get_xstream(&after_xs[i]);
}

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&work_done, 1);
}

/* Runs r1 and r2 on `es`: both succeed and go on there. */
static void race(ABT_pool old_pool)
{
    ABT_thread r[2];
    atomic_store(&go, 0);
    for (long i = 0; i < 2; i++) {
        ret[i] = -1;
        after_xs[i] = ABT_XSTREAM_NULL;
        CHECK_OK(ABT_thread_create(old_pool, replacer, (void *)i, ABT_THREAD_ATTR_NULL, &r[i]));
    }
    atomic_store(&go, 1);
    CHECK_OK(ABT_thread_free(&r[0]));
    CHECK_OK(ABT_thread_free(&r[1]));
    CHECK_EQ(ret[0], ABT_SUCCESS);
    CHECK_EQ(ret[1], ABT_SUCCESS);
    CHECK(after_xs[0] == es);
    CHECK(after_xs[1] == es);
}

/* The ES still works under its new scheduler. */
static void check_runs(void)
{
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    int before = atomic_load(&work_done);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&work_done), before + 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    /* Round 1: everything automatic. */
    ABT_pool p;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &p));
    ABT_sched old_sched;
    CHECK_OK(ABT_xstream_get_main_sched(es, &old_sched));
    race(p);
    ABT_sched cur;
    CHECK_OK(ABT_xstream_get_main_sched(es, &cur));
    CHECK(cur != old_sched);
    check_runs();
    CHECK_OK(ABT_xstream_free(&es));

    /* Round 2: user-owned schedulers and pools. */
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 0,
                                     ABT_sched_config_var_end));
    ABT_pool q[3];
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q[i]));
    ABT_sched s0;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &q[0], cfg, &s0));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &q[i + 1], cfg, &user_sched[i]));
    CHECK_OK(ABT_sched_config_free(&cfg));
    CHECK_OK(ABT_xstream_create(s0, &es));
    race(q[0]);
    CHECK_OK(ABT_xstream_get_main_sched(es, &cur));
    CHECK(cur == user_sched[0] || cur == user_sched[1]);
    int w = cur == user_sched[0] ? 0 : 1;
    check_runs();
    /* The replaced and the dropped scheduler are the user's again. */
    CHECK_OK(ABT_sched_free(&s0));
    CHECK_OK(ABT_sched_free(&user_sched[1 - w]));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&user_sched[w]));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_pool_free(&q[i]));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
