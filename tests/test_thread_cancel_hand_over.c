/* A cancel asked of a ULT that waits to run again is served by whatever
 * takes it next, a hand-over too (found by a stress audit: the four calls
 * below ran the ULT on past its yield). A ULT T yields (or suspends) once
 * started; the primary ULT cancels it, then hands it the ES:
 *   1. ABT_thread_yield_to(T);
 *   2. ABT_pool_remove of T's unit, then ABT_self_yield_to(T);
 *   3. T suspended: ABT_self_resume_yield_to(T);
 *   4. a helper ULT pops T and calls ABT_self_exit_to(T).
 * Each call succeeds, T ends without running any further, and the caller
 * goes on as after a plain yield (1-3) or ends as after ABT_thread_exit
 * (4). */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_pool pool;
static ABT_thread target;
static atomic_int started, progressed, go, helper_after;

static void yielder(void *arg)
{
    (void)arg;
    atomic_store(&started, 1);
    CHECK_OK(ABT_thread_yield()); /* cancelled while it waits after this */
    atomic_store(&progressed, 1);
}

static void suspender(void *arg)
{
    (void)arg;
    atomic_store(&started, 1);
    CHECK_OK(ABT_self_suspend());
    atomic_store(&progressed, 1);
}

static void exit_to_helper(void *arg)
{
    (void)arg;
    while (!atomic_load(&go))
        CHECK_OK(ABT_thread_yield());
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(pool, &t));
    CHECK(t == target);
    CHECK_OK(ABT_self_exit_to(t));
    atomic_store(&helper_after, 1); /* never: the helper exits */
}

static void wait_blocked(ABT_thread t)
{
    for (;;) {
        ABT_thread_state state;
        CHECK_OK(ABT_thread_get_state(t, &state));
        if (state == ABT_THREAD_STATE_BLOCKED)
            return;
        CHECK_OK(ABT_thread_yield());
    }
}

static void run_case(int how)
{
    atomic_store(&started, 0);
    atomic_store(&progressed, 0);
    atomic_store(&go, 0);
    ABT_thread helper = ABT_THREAD_NULL;
    if (how == 4)
        CHECK_OK(ABT_thread_create(pool, exit_to_helper, NULL, ABT_THREAD_ATTR_NULL, &helper));
    CHECK_OK(ABT_thread_create(pool, how == 3 ? suspender : yielder, NULL, ABT_THREAD_ATTR_NULL,
                               &target));
    while (!atomic_load(&started))
        CHECK_OK(ABT_thread_yield());
    if (how == 3)
        wait_blocked(target);
    CHECK_OK(ABT_thread_cancel(target));
    switch (how) {
    case 1:
        CHECK_OK(ABT_thread_yield_to(target));
        break;
    case 2: {
        ABT_unit unit;
        CHECK_OK(ABT_thread_get_unit(target, &unit));
        CHECK_OK(ABT_pool_remove(pool, unit));
        CHECK_OK(ABT_self_yield_to(target));
        break;
    }
    case 3:
        CHECK_OK(ABT_self_resume_yield_to(target));
        break;
    case 4:
        atomic_store(&go, 1);
        CHECK_OK(ABT_thread_free(&helper));
        break;
    }
    CHECK_OK(ABT_thread_free(&target));
    CHECK_EQ(atomic_load(&progressed), 0);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    for (int how = 1; how <= 4; how++)
        run_case(how);
    CHECK_EQ(atomic_load(&helper_after), 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
