/* ABT_self_resume_yield_to(t): t, a ULT blocked in ABT_self_suspend, is made
 * ready and runs at once (before the caller continues and before anything
 * else queued); the caller goes back to its pool. Errors: NULL target or a
 * tasklet target -> INV_THREAD; tasklet caller -> INV_THREAD; external
 * caller -> INV_XSTREAM. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1;
static char order[16];
static int pos;
static ABT_thread sleeper, waker, other;
static ABT_task done_task;
static int r_ok = -1, r_null = -1, r_task_target = -1, r_task = -1, r_ext = -1;
static ABT_thread_state st_before = (ABT_thread_state)-1;

static void note(char c)
{
    order[pos++] = c;
}

static void fs(void *arg)
{
    (void)arg;
    note('s');
    ABT_self_suspend();
    note('S');
}

static void fo(void *arg)
{
    (void)arg;
    note('o');
}

static void fw(void *arg)
{
    (void)arg;
    note('w');
    ABT_thread_get_state(sleeper, &st_before);
    r_null = ABT_self_resume_yield_to(ABT_THREAD_NULL);
    r_task_target = ABT_self_resume_yield_to(done_task);
    r_ok = ABT_self_resume_yield_to(sleeper);
    note('W');
}

static void setup(void *arg)
{
    (void)arg;
    ABT_thread_create(pool1, fs, NULL, ABT_THREAD_ATTR_NULL, &sleeper);
    ABT_thread_create(pool1, fw, NULL, ABT_THREAD_ATTR_NULL, &waker);
    ABT_thread_create(pool1, fo, NULL, ABT_THREAD_ATTR_NULL, &other);
}

static void noop(void *arg)
{
    (void)arg;
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task = ABT_self_resume_yield_to(sleeper);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_resume_yield_to(sleeper);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_task_create(pool1, noop, NULL, &done_task));
    CHECK_OK(ABT_task_join(done_task));

    /* Queue: sleeper, waker, other. */
    ABT_thread s;
    CHECK_OK(ABT_thread_create(pool1, setup, NULL, ABT_THREAD_ATTR_NULL, &s));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_thread_join(sleeper));
    CHECK_OK(ABT_thread_join(waker));
    CHECK_OK(ABT_thread_join(other));
    CHECK_EQ(st_before, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_ok, ABT_SUCCESS);
    /* sleeper runs right after the call, before `other`, then waker. */
    CHECK(strcmp(order, "swSoW") == 0);
    if (strcmp(order, "swSoW") != 0)
        fprintf(stderr, "order was %s\n", order);

    ABT_task t;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_EQ(r_task, ABT_ERR_INV_THREAD);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_OK(ABT_thread_free(&waker));
    CHECK_OK(ABT_thread_free(&other));
    CHECK_OK(ABT_task_free(&done_task));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
