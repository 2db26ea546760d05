/* An external pthread (not an ES) joins, and then frees, a ULT that runs on
 * a secondary ES. The join must block until the ULT finishes and then return
 * ABT_SUCCESS with the ULT TERMINATED. Also joins a tasklet from outside. */
#include <pthread.h>
#include <time.h>
#include "bb_test.h"

static ABT_thread ult;
static ABT_task task;
static int release_ult, ult_done, ext_started, join_returned;
static int ext_join_ret = -1, ext_free_ret = -1, ext_task_free_ret = -1;
static int done_seen_after_join = -1;
static ABT_thread_state state_after_join = (ABT_thread_state)-1;

static void ult_fn(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&release_ult, __ATOMIC_ACQUIRE))
        ABT_thread_yield();
    __atomic_store_n(&ult_done, 1, __ATOMIC_RELEASE);
}

static void task_fn(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&release_ult, __ATOMIC_ACQUIRE))
        ;
}

static void *ext_fn(void *arg)
{
    (void)arg;
    __atomic_store_n(&ext_started, 1, __ATOMIC_RELEASE);
    ext_join_ret = ABT_thread_join(ult);
    done_seen_after_join = __atomic_load_n(&ult_done, __ATOMIC_ACQUIRE);
    ABT_thread_get_state(ult, &state_after_join);
    __atomic_store_n(&join_returned, 1, __ATOMIC_RELEASE);
    ext_free_ret = ABT_thread_free(&ult);
    ext_task_free_ret = ABT_task_free(&task);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es, es2;
    ABT_pool pool, pool2;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));
    CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &ult));
    CHECK_OK(ABT_task_create(pool2, task_fn, NULL, &task));

    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    while (!__atomic_load_n(&ext_started, __ATOMIC_ACQUIRE))
        ;
    struct timespec ts = {0, 30 * 1000 * 1000};
    nanosleep(&ts, NULL);
    /* The ULT is still looping, so the external join must still wait. */
    CHECK_EQ(__atomic_load_n(&join_returned, __ATOMIC_ACQUIRE), 0);
    __atomic_store_n(&release_ult, 1, __ATOMIC_RELEASE);
    CHECK_EQ(pthread_join(th, NULL), 0);

    CHECK_EQ(ext_join_ret, ABT_SUCCESS);
    CHECK_EQ(done_seen_after_join, 1);
    CHECK_EQ(state_after_join, ABT_THREAD_STATE_TERMINATED);
    CHECK_EQ(ext_free_ret, ABT_SUCCESS);
    CHECK(ult == ABT_THREAD_NULL);
    CHECK_EQ(ext_task_free_ret, ABT_SUCCESS);
    CHECK(task == ABT_TASK_NULL);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
