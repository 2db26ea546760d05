/* ABT_xstream_run_unit runs a popped unit as a child of the calling ULT: the
 * caller continues when the child yields (the child goes back to its pool)
 * or ends. Errors: pool NULL (INV_POOL, checked first), unit NULL
 * (INV_UNIT), external caller (INV_XSTREAM), tasklet caller (INV_THREAD). */
#include "bb_test.h"
#include <pthread.h>

static int steps;
static ABT_xstream child_xs;

static void child(void *arg)
{
    (void)arg;
    steps++;
    ABT_thread_yield();
    ABT_self_get_xstream(&child_xs);
    steps++;
}

static ABT_unit the_unit;
static ABT_pool the_pool;
static int ext_ret = -1, task_ret = -1;

static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_xstream_run_unit(the_unit, the_pool);
    return NULL;
}

static void task_fn(void *arg)
{
    (void)arg;
    task_ret = ABT_xstream_run_unit(the_unit, the_pool);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    /* A pool no scheduler looks at. */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &the_pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(the_pool, child, NULL, ABT_THREAD_ATTR_NULL, &t));

    CHECK_ERR(ABT_xstream_run_unit(ABT_UNIT_NULL, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_xstream_run_unit(ABT_UNIT_NULL, the_pool), ABT_ERR_INV_UNIT);

    CHECK_OK(ABT_pool_pop(the_pool, &the_unit));
    CHECK(the_unit != ABT_UNIT_NULL);
    ABT_unit tu;
    CHECK_OK(ABT_thread_get_unit(t, &tu));
    CHECK(tu == the_unit);

    /* Refused callers do not run it. */
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_fn, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_ERR_INV_XSTREAM);
    ABT_task k;
    CHECK_OK(ABT_task_create(main_pool, task_fn, NULL, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(task_ret, ABT_ERR_INV_THREAD);
    CHECK_EQ(steps, 0);

    /* First run: until the child yields; it goes back to its pool. */
    CHECK_OK(ABT_xstream_run_unit(the_unit, the_pool));
    CHECK_EQ(steps, 1);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(the_pool, &size));
    CHECK_EQ(size, 1);
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_READY);

    /* Second run: to the end. */
    CHECK_OK(ABT_pool_pop(the_pool, &the_unit));
    CHECK(the_unit == tu);
    CHECK_OK(ABT_xstream_run_unit(the_unit, the_pool));
    CHECK_EQ(steps, 2);
    CHECK(child_xs == primary);
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_pool_free(&the_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
