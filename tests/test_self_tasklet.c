/* Inside a tasklet, the ABT_self_* routines that need to yield, suspend or
 * exit return ABT_ERR_INV_THREAD (as do the deprecated ABT_thread_self /
 * self_id / exit), and the tasklet keeps running afterwards; ABT_thread_yield
 * is a successful no-op. The query routines work. */
#include "bb_test.h"

static ABT_thread ready_ult;
static int results[20];
static int finished;

static void task_fn(void *arg)
{
    (void)arg;
    int i = 0;
    results[i++] = ABT_self_yield();
    results[i++] = ABT_self_yield_to(ready_ult);
    results[i++] = ABT_self_resume_yield_to(ready_ult);
    results[i++] = ABT_self_suspend();
    results[i++] = ABT_self_suspend_to(ready_ult);
    results[i++] = ABT_self_resume_suspend_to(ready_ult);
    results[i++] = ABT_self_exit();
    results[i++] = ABT_self_exit_to(ready_ult);
    results[i++] = ABT_self_resume_exit_to(ready_ult);
    results[i++] = ABT_self_schedule(ready_ult, ABT_POOL_NULL);
    ABT_thread t;
    results[i++] = ABT_thread_self(&t);
    ABT_unit_id id;
    results[i++] = ABT_thread_self_id(&id);
    results[i++] = ABT_thread_exit();
    ABT_bool b;
    results[i++] = ABT_self_is_primary(&b);
    /* From here on: expected to succeed. */
    results[i++] = ABT_thread_yield();
    results[i++] = ABT_thread_yield_to(ready_ult);
    ABT_xstream es;
    results[i++] = ABT_self_get_xstream(&es);
    results[i++] = ABT_self_get_thread(&t);
    results[i++] = ABT_self_get_thread_id(&id);
    results[i++] = ABT_self_on_primary_xstream(&b);
    finished = 1;
}

static void noop(void *arg)
{
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    /* READY in a pool no scheduler runs; the tasklet must not run it. */
    ABT_pool side;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side));
    CHECK_OK(ABT_thread_create(side, noop, NULL, ABT_THREAD_ATTR_NULL, &ready_ult));

    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &tk));
    CHECK_OK(ABT_task_join(tk));
    CHECK_EQ(finished, 1);
    const char *names[20] = {"self_yield", "self_yield_to", "self_resume_yield_to",
                             "self_suspend", "self_suspend_to", "self_resume_suspend_to",
                             "self_exit", "self_exit_to", "self_resume_exit_to",
                             "self_schedule", "thread_self", "thread_self_id", "thread_exit",
                             "self_is_primary", "thread_yield", "thread_yield_to",
                             "self_get_xstream", "self_get_thread", "self_get_thread_id",
                             "self_on_primary_xstream"};
    for (int i = 0; i < 20; i++) {
        int expected = i < 14 ? ABT_ERR_INV_THREAD : ABT_SUCCESS;
        if (results[i] != expected)
            fprintf(stderr, "%s from a tasklet: got %d, expected %d\n", names[i], results[i],
                    expected);
        CHECK_EQ(results[i], expected);
    }
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(ready_ult, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_READY);
    size_t n = 0;
    CHECK_OK(ABT_pool_get_size(side, &n));
    CHECK_EQ(n, 1);
    CHECK_OK(ABT_task_free(&tk));
    /* Hand it to the primary pool to reclaim it. */
    ABT_unit unit;
    CHECK_OK(ABT_pool_pop(side, &unit));
    CHECK_OK(ABT_thread_set_associated_pool(ready_ult, pool0));
    CHECK_OK(ABT_pool_push(pool0, unit));
    CHECK_OK(ABT_thread_free(&ready_ult));
    CHECK_OK(ABT_pool_free(&side));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
