/* ABT_sched_get_size / ABT_sched_get_total_size: the sum over the
 * scheduler's pools of the ready units; the total also counts the blocked
 * ULTs associated with those pools (a suspended ULT counts in the total
 * only, and in the plain size again once resumed). NULL sched -> INV_SCHED;
 * a pool without a get_size callback -> ABT_ERR_POOL. The scheduler here is
 * not attached to any ES: units are run from the primary ULT with
 * ABT_xstream_run_unit. */
#include "bb_test.h"

static int steps;

static void sleeper(void *arg)
{
    (void)arg;
    steps++;
    ABT_self_suspend();
    steps++;
}

static void plain(void *arg)
{
    (void)arg;
    steps++;
}

/* A minimal new-style user pool (a LIFO stack) without get_size. */
#define CAP 8
static ABT_thread stack[CAP];
static int depth;
static ABT_unit u_create(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    return (ABT_unit)thread;
}
static void u_free(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    (void)unit;
}
static ABT_bool u_is_empty(ABT_pool pool)
{
    (void)pool;
    return depth == 0 ? ABT_TRUE : ABT_FALSE;
}
static ABT_thread u_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)pool;
    (void)ctx;
    return depth ? stack[--depth] : ABT_THREAD_NULL;
}
static void u_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)pool;
    (void)ctx;
    ABT_thread t = ABT_THREAD_NULL;
    ABT_unit_get_thread(unit, &t);
    stack[depth++] = t;
}

static void expect_sizes(ABT_sched s, size_t size, size_t total)
{
    size_t got = 999;
    CHECK_OK(ABT_sched_get_size(s, &got));
    CHECK_EQ(got, size);
    got = 999;
    CHECK_OK(ABT_sched_get_total_size(s, &got));
    CHECK_EQ(got, total);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool p[2];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &p[1]));
    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, p, ABT_SCHED_CONFIG_NULL, &s));
    expect_sizes(s, 0, 0);

    ABT_thread sl, a, b;
    CHECK_OK(ABT_thread_create(p[0], sleeper, NULL, ABT_THREAD_ATTR_NULL, &sl));
    CHECK_OK(ABT_thread_create(p[0], plain, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_create(p[1], plain, NULL, ABT_THREAD_ATTR_NULL, &b));
    expect_sizes(s, 3, 3);

    /* Run the sleeper from p[0] until it suspends itself. */
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_OK(ABT_pool_pop(p[0], &u));
    ABT_unit slu;
    CHECK_OK(ABT_thread_get_unit(sl, &slu));
    CHECK(u == slu);
    expect_sizes(s, 2, 2); /* popped, not blocked: not counted at all */
    CHECK_OK(ABT_xstream_run_unit(u, p[0]));
    CHECK_EQ(steps, 1);
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(sl, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    expect_sizes(s, 2, 3);
    size_t psize = 9;
    CHECK_OK(ABT_pool_get_total_size(p[0], &psize));
    CHECK_EQ(psize, 2);

    /* Resume: back in p[0], ready. */
    CHECK_OK(ABT_thread_resume(sl));
    expect_sizes(s, 3, 3);

    /* Run everything. */
    for (int i = 0; i < 2; i++) {
        for (;;) {
            u = ABT_UNIT_NULL;
            CHECK_OK(ABT_pool_pop(p[i], &u));
            if (u == ABT_UNIT_NULL)
                break;
            CHECK_OK(ABT_xstream_run_unit(u, p[i]));
        }
    }
    CHECK_EQ(steps, 4);
    expect_sizes(s, 0, 0);
    CHECK_OK(ABT_thread_free(&sl));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_sched_free(&s));

    /* Errors. */
    size_t size = 5;
    CHECK_ERR(ABT_sched_get_size(ABT_SCHED_NULL, &size), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_get_total_size(ABT_SCHED_NULL, &size), ABT_ERR_INV_SCHED);

    ABT_pool_user_def def;
    CHECK_OK(ABT_pool_user_def_create(u_create, u_free, u_is_empty, u_pop, u_push, &def));
    ABT_pool up;
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &up));
    CHECK_OK(ABT_pool_user_def_free(&def));
    ABT_pool both[2] = {p[0], up};
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, both, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_ERR(ABT_sched_get_size(s, &size), ABT_ERR_POOL);
    CHECK_ERR(ABT_sched_get_total_size(s, &size), ABT_ERR_POOL);
    CHECK_OK(ABT_sched_free(&s));
    CHECK_OK(ABT_pool_free(&up));
    CHECK_OK(ABT_pool_free(&p[0]));
    CHECK_OK(ABT_pool_free(&p[1]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
