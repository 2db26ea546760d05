/* ABT_thread_get_thread_func / ABT_self_get_thread_func report NULL for the
 * primary ULT and for an ES's main scheduler (user-defined or predefined),
 * whose unit runs the runtime's own loop; a stacked scheduler's unit reports
 * its run function, which it calls with the scheduler (as in Argobots); a
 * plain ULT and a tasklet report the function they were created with
 * (docs/REFERENCE.md, section 3). */
#include "bb_test.h"

static ABT_pool g_pool;
static int g_main_checked, g_stacked_checked;

static void check_self_func(void (*expected)(void *), int *flag)
{
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    void (*f)(void *) = (void (*)(void *))1;
    CHECK_OK(ABT_thread_get_thread_func(self, &f));
    CHECK_EQ(f, expected);
    f = (void (*)(void *))1;
    CHECK_OK(ABT_self_get_thread_func(&f));
    CHECK_EQ(f, expected);
    *flag = 1;
}

static void main_run(ABT_sched sched)
{
    check_self_func(NULL, &g_main_checked);
    for (;;) {
        ABT_thread t;
        CHECK_OK(ABT_pool_pop_thread(g_pool, &t));
        if (t != ABT_THREAD_NULL)
            CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
        ABT_bool stop;
        CHECK_OK(ABT_sched_has_to_stop(sched, &stop));
        if (stop)
            break;
        CHECK_OK(ABT_xstream_check_events(sched));
    }
}

static void stacked_run(ABT_sched sched)
{
    (void)sched;
    check_self_func((void (*)(void *))stacked_run, &g_stacked_checked);
}

static void ult_fn(void *arg)
{
    void (*f)(void *) = NULL;
    CHECK_OK(ABT_self_get_thread_func(&f));
    CHECK_EQ(f, ult_fn);
    *(int *)arg = 1;
}

static void task_fn(void *arg)
{
    void (*f)(void *) = NULL;
    CHECK_OK(ABT_self_get_thread_func(&f));
    CHECK_EQ(f, task_fn);
    *(int *)arg = 1;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    ABT_thread primary;
    CHECK_OK(ABT_thread_self(&primary));
    void (*f)(void *) = (void (*)(void *))1;
    CHECK_OK(ABT_thread_get_thread_func(primary, &f));
    CHECK_EQ(f, NULL);
    f = (void (*)(void *))1;
    CHECK_OK(ABT_self_get_thread_func(&f));
    CHECK_EQ(f, NULL);

    /* The primary ES's predefined main scheduler. */
    ABT_xstream self_es;
    CHECK_OK(ABT_xstream_self(&self_es));
    ABT_sched msched;
    CHECK_OK(ABT_xstream_get_main_sched(self_es, &msched));

    /* A user-defined main scheduler on a new ES, and a stacked one. */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &g_pool));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = main_run};
    ABT_sched usched;
    CHECK_OK(ABT_sched_create(&def, 1, &g_pool, ABT_SCHED_CONFIG_NULL, &usched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(usched, &es));

    ABT_sched_def sdef = {.type = ABT_SCHED_TYPE_ULT, .run = stacked_run};
    ABT_sched ssched;
    CHECK_OK(ABT_sched_create(&sdef, 0, NULL, ABT_SCHED_CONFIG_NULL, &ssched));
    CHECK_OK(ABT_pool_add_sched(g_pool, ssched));

    int ult_ok = 0, task_ok = 0;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(g_pool, ult_fn, &ult_ok, ABT_THREAD_ATTR_NULL, &t));
    f = NULL;
    CHECK_OK(ABT_thread_get_thread_func(t, &f));
    CHECK_EQ(f, ult_fn);
    CHECK_OK(ABT_thread_free(&t));
    ABT_task k;
    CHECK_OK(ABT_task_create(g_pool, task_fn, &task_ok, &k));
    f = NULL;
    CHECK_OK(ABT_thread_get_thread_func(k, &f));
    CHECK_EQ(f, task_fn);
    CHECK_OK(ABT_task_free(&k));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(ult_ok, 1);
    CHECK_EQ(task_ok, 1);
    CHECK_EQ(g_main_checked, 1);
    CHECK_EQ(g_stacked_checked, 1);
    CHECK_OK(ABT_sched_free(&usched));
    CHECK_OK(ABT_sched_free(&ssched));
    CHECK_OK(ABT_pool_free(&g_pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
