/* ABT_thread_create_to and ABT_thread_revive_to need a plain ULT: a
 * scheduler (here an ES's user-defined main scheduler) and a tasklet get
 * ABT_ERR_INV_THREAD (REFERENCE, section 3) and nothing is created. The
 * scheduler first runs and frees a ULT, so that its ES's cache holds a
 * descriptor: the create shortcut (hotpath.c) is then open to it, and must
 * still refuse. Mutation testing (hotpath.c, ABT_thread_create_to's test of
 * the caller) found nothing checking a scheduler caller. */
#include "sched_user_util.h"

static int sched_create_to_err = -12345, sched_revive_to_err = -12345;
static int task_create_to_err = -12345;
static int child_runs;
static int sched_checked; /* set after the scheduler's checks: its pops expect only `w` */

static void child(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&child_runs, 1, __ATOMIC_SEQ_CST);
}

static void sched_run(ABT_sched sched)
{
    static int first = 1;
    ABT_pool pool;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &pool));
    if (first) {
        first = 0;
        for (int i = 0; i < 4; i++) { /* fill this ES's cache */
            ABT_thread w, popped = ABT_THREAD_NULL;
            CHECK_OK(ABT_thread_create(pool, child, NULL, ABT_THREAD_ATTR_NULL, &w));
            CHECK_OK(ABT_pool_pop_thread(pool, &popped));
            CHECK(popped == w);
            CHECK_OK(ABT_self_schedule(popped, ABT_POOL_NULL));
            if (i == 3)
                sched_revive_to_err = ABT_thread_revive_to(pool, child, NULL, &w);
            CHECK_OK(ABT_thread_free(&w));
        }
        ABT_thread t = ABT_THREAD_NULL;
        sched_create_to_err = ABT_thread_create_to(pool, child, NULL, ABT_THREAD_ATTR_NULL, &t);
        CHECK(t == ABT_THREAD_NULL);
        __atomic_store_n(&sched_checked, 1, __ATOMIC_SEQ_CST);
    }
    one_pool_sched_run(sched);
}

static void tasklet(void *arg)
{
    ABT_thread t = ABT_THREAD_NULL;
    task_create_to_err = ABT_thread_create_to(*(ABT_pool *)arg, child, NULL,
                                              ABT_THREAD_ATTR_NULL, &t);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    ABT_sched sched;
    ABT_xstream es = start_user_sched_es(sched_run, &sched, &pool);
    while (!__atomic_load_n(&sched_checked, __ATOMIC_SEQ_CST))
        ABT_thread_yield();
    ABT_task task;
    CHECK_OK(ABT_task_create(pool, tasklet, &pool, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(sched_create_to_err, ABT_ERR_INV_THREAD);
    CHECK_EQ(sched_revive_to_err, ABT_ERR_INV_THREAD);
    CHECK_EQ(task_create_to_err, ABT_ERR_INV_THREAD);
    CHECK_EQ(child_runs, 4);
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
