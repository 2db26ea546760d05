/* ABT_self_exit_to(t): the caller terminates (code after the call never runs)
 * and the popped ULT t runs at once; t sees the caller TERMINATED and the
 * caller's joiner is released. Errors: NULL / self / tasklet target ->
 * INV_THREAD; the primary ULT as caller or as target -> INV_THREAD; tasklet
 * caller -> INV_THREAD; external caller -> INV_XSTREAM. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1, side_pool;
static char order[16];
static int pos;
static ABT_thread primary, caller, target;
static ABT_task done_task;
static ABT_thread_state caller_state = (ABT_thread_state)-1;
static int r_null = -1, r_self = -1, r_task_target = -1, r_primary_target = -1, r_task = -1,
           r_ext = -1;

static void note(char c)
{
    order[pos++] = c;
}

static void fb(void *arg)
{
    (void)arg;
    note('b');
    ABT_thread_get_state(caller, &caller_state);
}

static void fa(void *arg)
{
    (void)arg;
    ABT_self_get_thread(&caller);
    r_null = ABT_self_exit_to(ABT_THREAD_NULL);
    r_self = ABT_self_exit_to(caller);
    r_task_target = ABT_self_exit_to(done_task);
    r_primary_target = ABT_self_exit_to(primary);
    ABT_thread_create(side_pool, fb, NULL, ABT_THREAD_ATTR_NULL, &target);
    ABT_unit unit;
    ABT_pool_pop(side_pool, &unit);
    ABT_thread_set_associated_pool(target, pool1);
    note('a');
    ABT_self_exit_to(target);
    note('X'); /* must never run */
}

static void noop(void *arg)
{
    (void)arg;
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task = ABT_self_exit_to(target);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_exit_to(target);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_thread_self(&primary));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side_pool));
    CHECK_OK(ABT_task_create(pool1, noop, NULL, &done_task));
    CHECK_OK(ABT_task_join(done_task));

    ABT_thread a;
    CHECK_OK(ABT_thread_create(pool1, fa, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_join(a));
    CHECK_OK(ABT_thread_join(target));
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(a, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ(caller_state, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_primary_target, ABT_ERR_INV_THREAD);
    CHECK(strcmp(order, "ab") == 0);
    if (strcmp(order, "ab") != 0)
        fprintf(stderr, "order was %s\n", order);

    /* The primary ULT cannot exit_to: use a fresh popped ULT as target. */
    ABT_thread t2;
    CHECK_OK(ABT_thread_create(side_pool, noop, NULL, ABT_THREAD_ATTR_NULL, &t2));
    ABT_unit unit;
    CHECK_OK(ABT_pool_pop(side_pool, &unit));
    CHECK_ERR(ABT_self_exit_to(t2), ABT_ERR_INV_THREAD);
    /* Put it where it can run, then reclaim it. */
    CHECK_OK(ABT_thread_set_associated_pool(t2, pool1));
    CHECK_OK(ABT_pool_push(pool1, unit));
    CHECK_OK(ABT_thread_free(&t2));

    ABT_task t;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_EQ(r_task, ABT_ERR_INV_THREAD);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&target));
    CHECK_OK(ABT_task_free(&done_task));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&side_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
