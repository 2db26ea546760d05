/* ABT_self_resume_exit_to(t): the caller terminates and the blocked ULT t
 * resumes at once, before anything else queued. Errors: NULL / tasklet target
 * -> INV_THREAD; the primary ULT as caller -> INV_THREAD; tasklet caller ->
 * INV_THREAD; external caller -> INV_XSTREAM. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1;
static char order[16];
static int pos;
static ABT_thread sleeper, exiter, other;
static ABT_task done_task;
static int r_null = -1, r_task_target = -1, r_task = -1, r_ext = -1;
static ABT_thread_state exiter_state = (ABT_thread_state)-1;

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
    ABT_thread_get_state(exiter, &exiter_state);
}

static void fe(void *arg)
{
    (void)arg;
    note('e');
    r_null = ABT_self_resume_exit_to(ABT_THREAD_NULL);
    r_task_target = ABT_self_resume_exit_to(done_task);
    ABT_self_resume_exit_to(sleeper);
    note('X'); /* never */
}

static void fo(void *arg)
{
    (void)arg;
    note('o');
}

static void setup(void *arg)
{
    (void)arg;
    ABT_thread_create(pool1, fs, NULL, ABT_THREAD_ATTR_NULL, &sleeper);
    ABT_thread_create(pool1, fe, NULL, ABT_THREAD_ATTR_NULL, &exiter);
    ABT_thread_create(pool1, fo, NULL, ABT_THREAD_ATTR_NULL, &other);
}

static void noop(void *arg)
{
    (void)arg;
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task = ABT_self_resume_exit_to(sleeper);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_resume_exit_to(sleeper);
    return NULL;
}

static void suspend_once(void *arg)
{
    (void)arg;
    ABT_self_suspend();
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

    ABT_thread s;
    CHECK_OK(ABT_thread_create(pool1, setup, NULL, ABT_THREAD_ATTR_NULL, &s));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_thread_join(sleeper));
    CHECK_OK(ABT_thread_join(exiter));
    CHECK_OK(ABT_thread_join(other));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(exiter_state, ABT_THREAD_STATE_TERMINATED);
    CHECK(strcmp(order, "seSo") == 0);
    if (strcmp(order, "seSo") != 0)
        fprintf(stderr, "order was %s\n", order);

    /* The primary ULT may not exit this way. */
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    ABT_thread blocked;
    CHECK_OK(ABT_thread_create(pool0, suspend_once, NULL, ABT_THREAD_ATTR_NULL, &blocked));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        ABT_thread_yield();
        ABT_thread_get_state(blocked, &st);
    }
    CHECK_ERR(ABT_self_resume_exit_to(blocked), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_thread_resume(blocked));
    CHECK_OK(ABT_thread_free(&blocked));

    ABT_task t;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_EQ(r_task, ABT_ERR_INV_THREAD);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_OK(ABT_thread_free(&exiter));
    CHECK_OK(ABT_thread_free(&other));
    CHECK_OK(ABT_task_free(&done_task));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
