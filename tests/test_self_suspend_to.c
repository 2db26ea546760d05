/* ABT_self_suspend_to(t): the caller becomes BLOCKED (and is not queued) and
 * the popped ULT t runs at once. The caller stays blocked until t resumes it
 * with ABT_thread_resume, and then continues after the call. Errors as for
 * yield_to. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1, side_pool;
static char order[16];
static int pos;
static ABT_thread caller, target;
static ABT_thread_state caller_state_in_target = (ABT_thread_state)-1;
static int r_ok = -1, r_null = -1, r_self = -1, r_resume = -1, r_ext = -1, r_task = -1;

static void note(char c)
{
    order[pos++] = c;
}

static void fb(void *arg)
{
    (void)arg;
    note('b');
    ABT_thread_get_state(caller, &caller_state_in_target);
    /* Yield a few times: the blocked caller must not come back by itself. */
    for (int i = 0; i < 5; i++)
        ABT_thread_yield();
    note('r');
    r_resume = ABT_thread_resume(caller);
    note('B');
}

static void fa(void *arg)
{
    (void)arg;
    ABT_self_get_thread(&caller);
    r_null = ABT_self_suspend_to(ABT_THREAD_NULL);
    r_self = ABT_self_suspend_to(caller);
    ABT_thread_create(side_pool, fb, NULL, ABT_THREAD_ATTR_NULL, &target);
    ABT_unit unit;
    ABT_pool_pop(side_pool, &unit);
    ABT_thread_set_associated_pool(target, pool1);
    note('a');
    r_ok = ABT_self_suspend_to(target);
    note('A');
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task = ABT_self_suspend_to(target);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_suspend_to(target);
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

    ABT_thread a;
    CHECK_OK(ABT_thread_create(pool1, fa, NULL, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_join(a));
    CHECK_OK(ABT_thread_join(target));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_self, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    CHECK_EQ(r_resume, ABT_SUCCESS);
    CHECK_EQ(caller_state_in_target, ABT_THREAD_STATE_BLOCKED);
    CHECK(strcmp(order, "abrBA") == 0);
    if (strcmp(order, "abrBA") != 0)
        fprintf(stderr, "order was %s\n", order);

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
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&side_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
