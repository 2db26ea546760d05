/* A ULT that hands its ES to another one goes back to its pool with a push
 * context that says how (Argobots 1.2's ABT_pool_context): the caller of
 * ABT_self_yield_to with ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO, the caller of
 * ABT_self_resume_yield_to with ABT_POOL_CONTEXT_OP_THREAD_RESUME_YIELD_TO,
 * and the caller of ABT_self_yield with ABT_POOL_CONTEXT_OP_THREAD_YIELD.
 * A user pool sees each push before the ULT that takes over runs on.
 *
 * Two ULTs, first and second, share a user pool that one ES serves:
 *   first:  pops second, self_yield_to(second)
 *   second: sees YIELD_TO; pops first, self_yield_to(first)
 *   first:  sees YIELD_TO; suspends
 *   second: (popped by the scheduler) self_resume_yield_to(first)
 *   first:  sees RESUME_YIELD_TO; self_yield
 *   second: sees YIELD; ends, then first ends. */
#include "pool_user_util.h"

static ABT_pool pool;
static up_state state;
static ABT_thread first, second;
static int steps;

static ABT_pool_context take_last_push_ctx(void)
{
    pthread_mutex_lock(&state.lock);
    ABT_pool_context ctx = state.last_push_ctx;
    state.last_push_ctx = 0;
    pthread_mutex_unlock(&state.lock);
    return ctx;
}

static ABT_thread pop_other(void)
{
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(pool, &t));
    CHECK(t != ABT_THREAD_NULL);
    return t;
}

static void run_first(void *arg)
{
    (void)arg;
    CHECK(pop_other() == second);
    (void)take_last_push_ctx();
    CHECK_OK(ABT_self_yield_to(second));
    CHECK_EQ(take_last_push_ctx(), ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO);
    steps++;
    CHECK_OK(ABT_self_suspend());
    CHECK_EQ(take_last_push_ctx(), ABT_POOL_CONTEXT_OP_THREAD_RESUME_YIELD_TO);
    steps++;
    CHECK_OK(ABT_self_yield());
}

static void run_second(void *arg)
{
    (void)arg;
    CHECK_EQ(take_last_push_ctx(), ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO);
    steps++;
    CHECK(pop_other() == first);
    CHECK_OK(ABT_self_yield_to(first));
    /* first suspended; the scheduler popped us */
    CHECK_OK(ABT_self_resume_yield_to(first));
    CHECK_EQ(take_last_push_ctx(), ABT_POOL_CONTEXT_OP_THREAD_YIELD);
    steps++;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&state);
    ABT_pool_user_def def = up_new_def(1);
    ABT_pool_config cfg = up_config(&state, -1);
    CHECK_OK(ABT_pool_create(def, cfg, &pool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_user_def_free(&def));

    CHECK_OK(ABT_thread_create(pool, run_first, NULL, ABT_THREAD_ATTR_NULL, &first));
    CHECK_OK(ABT_thread_create(pool, run_second, NULL, ABT_THREAD_ATTR_NULL, &second));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&first));
    CHECK_OK(ABT_thread_free(&second));
    CHECK_EQ(steps, 4);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
