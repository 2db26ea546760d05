/* ABT_self_schedule(t, pool): the calling ULT runs the popped unit t as its
 * own child; the caller continues when t yields or finishes. A non-NULL pool
 * re-associates t (so a yielding t goes there); ABT_POOL_NULL keeps t's pool.
 * A popped tasklet can be scheduled too. Errors: NULL thread -> INV_THREAD;
 * tasklet caller -> INV_THREAD; external caller -> INV_XSTREAM. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1, side_pool;
static char order[32];
static int pos;
static ABT_thread child1, child2;
static ABT_task child_task;
static int r1 = -1, r2 = -1, r3 = -1, r_null = -1, r_task = -1, r_ext = -1;
static ABT_pool child1_pool_after;
static ABT_xstream child1_es;

static void note(char c)
{
    order[pos++] = c;
}

static void fc(void *arg)
{
    char c = (char)(intptr_t)arg;
    note(c);
    ABT_self_get_xstream(&child1_es);
    ABT_thread_yield();
    note((char)(c - 'a' + 'A'));
}

static void ft(void *arg)
{
    (void)arg;
    note('t');
}

static ABT_unit pop_one(void)
{
    ABT_unit u = ABT_UNIT_NULL;
    ABT_pool_pop(side_pool, &u);
    return u;
}

static void parent(void *arg)
{
    (void)arg;
    r_null = ABT_self_schedule(ABT_THREAD_NULL, ABT_POOL_NULL);
    ABT_thread_create(side_pool, fc, (void *)(intptr_t)'b', ABT_THREAD_ATTR_NULL, &child1);
    pop_one();
    note('p');
    r1 = ABT_self_schedule(child1, pool1); /* child1 yields into pool1 */
    ABT_thread_get_last_pool(child1, &child1_pool_after);
    note('q');

    ABT_thread_create(side_pool, fc, (void *)(intptr_t)'c', ABT_THREAD_ATTR_NULL, &child2);
    pop_one();
    ABT_thread_set_associated_pool(child2, pool1);
    r2 = ABT_self_schedule(child2, ABT_POOL_NULL);
    note('r');

    ABT_task_create(side_pool, ft, NULL, &child_task);
    pop_one();
    r3 = ABT_self_schedule(child_task, pool1);
    note('s');
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task = ABT_self_schedule(child1, ABT_POOL_NULL);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_schedule(child1, ABT_POOL_NULL);
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

    ABT_thread p;
    CHECK_OK(ABT_thread_create(pool1, parent, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_OK(ABT_thread_join(p));
    CHECK_OK(ABT_thread_join(child1));
    CHECK_OK(ABT_thread_join(child2));
    CHECK_OK(ABT_task_join(child_task));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r1, ABT_SUCCESS);
    CHECK_EQ(r2, ABT_SUCCESS);
    CHECK_EQ(r3, ABT_SUCCESS);
    CHECK(child1_pool_after == pool1);
    CHECK(child1_es == es);
    /* The parent continues whenever a child yields; the yielded children
     * finish later from pool1, in FIFO order. */
    CHECK(strcmp(order, "pbqcrtsBC") == 0);
    if (strcmp(order, "pbqcrtsBC") != 0)
        fprintf(stderr, "order was %s\n", order);

    ABT_task t;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_EQ(r_task, ABT_ERR_INV_THREAD);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&p));
    CHECK_OK(ABT_thread_free(&child1));
    CHECK_OK(ABT_thread_free(&child2));
    CHECK_OK(ABT_task_free(&child_task));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&side_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
