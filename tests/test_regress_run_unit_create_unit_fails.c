/* ABT_self_schedule(thread, pool) and ABT_xstream_run_unit(unit, pool)
 * associate the unit with `pool` before running it. When `pool` is a user
 * pool whose create-unit callback fails (returns ABT_UNIT_NULL), the call
 * must report it (ABT_ERR_OTHER, as every other call that associates a unit
 * does; Argobots 1.2 returns the error and does not run the unit) and leave
 * the unit as it was: not run, still READY, still associated with its pool.
 * They used to ignore the failure, run the unit in its old pool and
 * return ABT_SUCCESS.
 *
 * A ULT waits in built-in pool Q, which no scheduler serves; the primary
 * ULT pops it and asks each call to run it as a unit of user pool P while
 * P's create_unit fails; then, with create_unit working again, it runs. */
#include "pool_user_util.h"

static atomic_int fail_create, ran;

static ABT_unit failing_create_unit(ABT_pool pool, ABT_thread thread)
{
    if (atomic_load(&fail_create))
        return ABT_UNIT_NULL;
    return up_create_unit(pool, thread);
}

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Pop `*t` out of Q, as a scheduler would before running it. */
static void pop_from(ABT_pool q, ABT_thread t)
{
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(q, &popped));
    CHECK(popped == t);
}

static void check_untouched(ABT_thread t, ABT_pool q)
{
    ABT_thread_state state;
    CHECK_OK(ABT_thread_get_state(t, &state));
    CHECK_EQ(state, ABT_THREAD_STATE_READY);
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &last));
    CHECK(last == q);
    CHECK_EQ(atomic_load(&ran), 0);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool P = up_new_pool_with(failing_create_unit, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));
    ABT_pool Q;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(Q, body, NULL, ABT_THREAD_ATTR_NULL, &t));

    atomic_store(&fail_create, 1);
    pop_from(Q, t);
    CHECK_ERR(ABT_self_schedule(t, P), ABT_ERR_OTHER);
    check_untouched(t, Q);

    ABT_unit unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t, &unit));
    CHECK_ERR(ABT_xstream_run_unit(unit, P), ABT_ERR_OTHER);
    check_untouched(t, Q);

    /* With the callback working again, both run it in P. */
    atomic_store(&fail_create, 0);
    CHECK_OK(ABT_self_schedule(t, P));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&ran), 1);

    CHECK_OK(ABT_thread_create(Q, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    pop_from(Q, t);
    CHECK_OK(ABT_thread_get_unit(t, &unit));
    CHECK_OK(ABT_xstream_run_unit(unit, P));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&ran), 2);

    CHECK_EQ(atomic_load(&st.n_create), atomic_load(&st.n_free_unit));
    CHECK_OK(ABT_pool_free(&Q));
    CHECK_OK(ABT_pool_free(&P));
    CHECK_EQ(up_g.n_misuse, 0);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
