/* Argobots 1.2 documents four callbacks of a legacy struct ABT_pool_def as
 * unused: u_get_type, u_get_thread, u_get_task and u_create_from_task.
 * Programs leave them unset, even uninitialized (a definition on the stack
 * that fills in only the callbacks that are used), so the runtime must
 * never call them. Here they are set to callbacks that count their calls;
 * a legacy pool then runs ULTs and tasklets as the only pool of a secondary
 * ES, and by hand: ABT_pool_pop returns the unit that u_create_from_thread
 * made, ABT_unit_get_thread maps it back, ABT_pool_pop_thread returns the
 * thread, and all without one call of the four. */
#include "pool_user_util.h"

static atomic_int unused_calls;

static ABT_unit_type unused_get_type(ABT_unit unit)
{
    (void)unit;
    atomic_fetch_add(&unused_calls, 1);
    return ABT_UNIT_TYPE_EXT; /* a wrong answer, were it used */
}

static ABT_thread unused_get_thread(ABT_unit unit)
{
    (void)unit;
    atomic_fetch_add(&unused_calls, 1);
    return ABT_THREAD_NULL;
}

static ABT_task unused_get_task(ABT_unit unit)
{
    (void)unit;
    atomic_fetch_add(&unused_calls, 1);
    return ABT_TASK_NULL;
}

static ABT_unit unused_create_from_task(ABT_task task)
{
    (void)task;
    atomic_fetch_add(&unused_calls, 1);
    return ABT_UNIT_NULL;
}

static void plain(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    static up_state st;
    up_state_init(&st);
    ABT_pool_def def = up_legacy_def(ABT_POOL_ACCESS_MPMC, 0);
    def.u_get_type = unused_get_type;
    def.u_get_thread = unused_get_thread;
    def.u_get_task = unused_get_task;
    def.u_create_from_task = unused_create_from_task;
    ABT_pool_config cfg = up_config(&st, -1);
    CHECK_OK(ABT_pool_create(&def, cfg, &up_wl.pool));
    CHECK_OK(ABT_pool_config_free(&cfg));

    /* By hand, on the pool while no scheduler serves it. */
    ABT_thread t, back = ABT_THREAD_NULL;
    ABT_task task;
    ABT_unit unit = ABT_UNIT_NULL, made = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_create(up_wl.pool, plain, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_get_unit(t, &made));
    CHECK_OK(ABT_pool_pop(up_wl.pool, &unit));
    CHECK(unit == made && ((up_unit *)unit)->thread == t);
    CHECK_OK(ABT_unit_get_thread(unit, &back));
    CHECK(back == t);
    CHECK_OK(ABT_pool_push(up_wl.pool, unit));
    CHECK_OK(ABT_task_create(up_wl.pool, plain, NULL, &task));
    CHECK_OK(ABT_pool_pop_thread(up_wl.pool, &back));
    CHECK(back == t);
    CHECK_OK(ABT_pool_push_thread(up_wl.pool, back));

    /* Under a scheduler: these two, then a mixed workload. */
    up_wl_run(ABT_SCHED_BASIC, 10, 10, 10, 10, 2);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(atomic_load(&unused_calls), 0);
    CHECK_EQ(atomic_load(&up_g.n_create), atomic_load(&up_g.n_free_unit));
    CHECK_OK(ABT_pool_free(&up_wl.pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
