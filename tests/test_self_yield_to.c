/* ABT_self_yield_to(t) with a READY ULT t that the caller popped from a pool
 * itself: t runs at once, the caller goes to the back of its own pool (behind
 * a ULT already queued there). Errors: NULL target, the caller itself, a
 * tasklet target -> INV_THREAD; tasklet caller -> INV_THREAD; external
 * caller -> INV_XSTREAM. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1, side_pool;
static char order[16];
static int pos;
static ABT_thread target, queued;
static ABT_task done_task;
static int r_ok = -1, r_null = -1, r_self = -1, r_task_target = -1, r_from_task = -1,
           r_ext = -1, popped_ok;
static ABT_xstream target_es;

static void note(char c)
{
    order[pos++] = c;
}

static void fb(void *arg)
{
    (void)arg;
    note('b');
    ABT_self_get_xstream(&target_es);
}

static void fc(void *arg)
{
    (void)arg;
    note('c');
}

static void fa(void *arg)
{
    (void)arg;
    ABT_thread self;
    ABT_self_get_thread(&self);
    r_null = ABT_self_yield_to(ABT_THREAD_NULL);
    r_self = ABT_self_yield_to(self);
    r_task_target = ABT_self_yield_to(done_task);

    ABT_thread_create(side_pool, fb, NULL, ABT_THREAD_ATTR_NULL, &target);
    ABT_thread_create(pool1, fc, NULL, ABT_THREAD_ATTR_NULL, &queued);
    ABT_unit unit = ABT_UNIT_NULL, expected = ABT_UNIT_NULL;
    ABT_pool_pop(side_pool, &unit);
    ABT_thread_get_unit(target, &expected);
    popped_ok = unit != ABT_UNIT_NULL && unit == expected;
    ABT_thread_set_associated_pool(target, pool1);
    note('a');
    r_ok = ABT_self_yield_to(target);
    note('A');
}

static void noop(void *arg)
{
    (void)arg;
}

static void task_fn(void *arg)
{
    (void)arg;
    r_from_task = ABT_self_yield_to(queued);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_yield_to(queued);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side_pool));
    CHECK_OK(ABT_task_create(pool1, noop, NULL, &done_task));
    CHECK_OK(ABT_task_join(done_task));

    ABT_thread a;
    CHECK_OK(ABT_thread_create(pool1, fa, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_free(&a));
    CHECK(popped_ok);
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    CHECK(strcmp(order, "abcA") == 0);
    if (strcmp(order, "abcA") != 0)
        fprintf(stderr, "order was %s\n", order);
    CHECK(target_es == es);
    CHECK_OK(ABT_thread_free(&target));

    /* `queued` has finished; the caller-kind checks come before it matters. */
    ABT_task t;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_EQ(r_from_task, ABT_ERR_INV_THREAD);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&queued));
    CHECK_OK(ABT_task_free(&done_task));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&side_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
