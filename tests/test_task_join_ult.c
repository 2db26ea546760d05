/* A tasklet on one ES calls ABT_thread_join on a ULT that runs (and yields)
 * on another ES: the join blocks the tasklet until the ULT terminates and
 * returns ABT_SUCCESS with the ULT TERMINATED. */
#include <time.h>
#include "bb_test.h"

static ABT_thread target;
static int release, joining, ult_done, join_returned;
static int r_join = -1, done_seen = -1;
static ABT_thread_state st_seen = (ABT_thread_state)-1;

static void ult_fn(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
        ABT_thread_yield();
    for (int i = 0; i < 100; i++)
        ABT_thread_yield();
    __atomic_store_n(&ult_done, 1, __ATOMIC_RELEASE);
}

static void task_fn(void *arg)
{
    (void)arg;
    __atomic_store_n(&joining, 1, __ATOMIC_RELEASE);
    r_join = ABT_thread_join(target);
    done_seen = __atomic_load_n(&ult_done, __ATOMIC_ACQUIRE);
    ABT_thread_get_state(target, &st_seen);
    __atomic_store_n(&join_returned, 1, __ATOMIC_RELEASE);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es1, es2;
    ABT_pool pool1, pool2;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));

    CHECK_OK(ABT_thread_create(pool2, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &target));
    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &tk));
    while (!__atomic_load_n(&joining, __ATOMIC_ACQUIRE))
        ;
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);
    CHECK_EQ(__atomic_load_n(&join_returned, __ATOMIC_ACQUIRE), 0);
    __atomic_store_n(&release, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_task_free(&tk));
    CHECK_EQ(r_join, ABT_SUCCESS);
    CHECK_EQ(done_seen, 1);
    CHECK_EQ(st_seen, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&target));

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
