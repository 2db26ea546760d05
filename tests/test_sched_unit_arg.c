/* The ULT of an ES's main scheduler has NULL for its argument, as in
 * Argobots, and the argument is the user's like any ULT's: a user-defined
 * main scheduler's ABT_self_get_arg gives NULL (it gave bobbin's own
 * descriptor), and after ABT_thread_set_arg on that ULT the ES still stops,
 * is revived and runs work (its scheduler started from the argument: a
 * revived ES would have crashed). */
#include "sched_user_util.h"

static void *seen_arg = (void *)1;
static ABT_thread sched_thread = ABT_THREAD_NULL;

static void recording_run(ABT_sched sched)
{
    if (sched_thread == ABT_THREAD_NULL) {
        CHECK_OK(ABT_self_get_arg(&seen_arg));
        CHECK_OK(ABT_self_get_thread(&sched_thread));
    }
    one_pool_sched_run(sched);
}

static int work_done;

static void work(void *arg)
{
    (void)arg;
    work_done++;
}

static void run_work_on(ABT_pool pool)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_FALSE, &pool));
    static ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = recording_run};
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(sched, &es));
    run_work_on(pool);
    CHECK(sched_thread != ABT_THREAD_NULL);
    CHECK(seen_arg == NULL);
    void *arg = (void *)1;
    CHECK_OK(ABT_thread_get_arg(sched_thread, &arg));
    CHECK(arg == NULL);

    /* The user's argument now; the scheduler does not depend on it. */
    static int marker;
    CHECK_OK(ABT_thread_set_arg(sched_thread, &marker));
    CHECK_OK(ABT_thread_get_arg(sched_thread, &arg));
    CHECK(arg == &marker);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_revive(es));
    run_work_on(pool);
    CHECK_EQ(work_done, 2);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&sched)); /* not automatic: the user's to free */
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
