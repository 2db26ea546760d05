/* ABT_xstream_barrier_* error codes and trivial cases: before ABT_init and
 * after ABT_finalize -> ABT_ERR_UNINITIALIZED (create also sets *out to
 * NULL); create(0) -> ABT_ERR_INV_ARG with *out NULL; NULL out-pointers ->
 * ABT_ERR_INV_ARG; NULL handles -> ABT_ERR_INV_XSTREAM_BARRIER; N == 1
 * returns at once for any caller (main ULT, tasklet, external pthread); a
 * tasklet may wait (it holds its ES); free while a caller waits ->
 * ABT_ERR_XSTREAM_BARRIER with the handle unchanged. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

static ABT_xstream_barrier barrier;
static atomic_int ext_started, ext_passed, task_passed;

static void check_uninit(void)
{
    ABT_xstream_barrier b = (ABT_xstream_barrier)(intptr_t)0x10;
    CHECK_ERR(ABT_xstream_barrier_create(2, &b), ABT_ERR_UNINITIALIZED);
    CHECK(b == ABT_XSTREAM_BARRIER_NULL);
    ABT_xstream_barrier bogus = (ABT_xstream_barrier)(intptr_t)0x10;
    CHECK_ERR(ABT_xstream_barrier_wait(bogus), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_barrier_wait(ABT_XSTREAM_BARRIER_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_barrier_free(&bogus), ABT_ERR_UNINITIALIZED);
    CHECK(bogus == (ABT_xstream_barrier)(intptr_t)0x10);
}

static void task_once(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    atomic_fetch_add(&task_passed, 1);
}

static void *ext_once(void *arg)
{
    (void)arg;
    atomic_store(&ext_started, 1);
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    atomic_fetch_add(&ext_passed, 1);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    check_uninit();
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es0, es1;
    ABT_pool pool0;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &pool0));

    CHECK_ERR(ABT_xstream_barrier_create(2, NULL), ABT_ERR_INV_ARG);
    ABT_xstream_barrier b = (ABT_xstream_barrier)(intptr_t)0x10;
    CHECK_ERR(ABT_xstream_barrier_create(0, &b), ABT_ERR_INV_ARG);
    CHECK(b == ABT_XSTREAM_BARRIER_NULL);
    CHECK_ERR(ABT_xstream_barrier_free(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_barrier_free(&b), ABT_ERR_INV_XSTREAM_BARRIER);
    CHECK_ERR(ABT_xstream_barrier_wait(ABT_XSTREAM_BARRIER_NULL),
              ABT_ERR_INV_XSTREAM_BARRIER);

    /* N == 1: every caller passes at once. */
    CHECK_OK(ABT_xstream_barrier_create(1, &barrier));
    CHECK(barrier != ABT_XSTREAM_BARRIER_NULL);
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    ABT_task task;
    CHECK_OK(ABT_task_create(pool0, task_once, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(atomic_load(&task_passed), 1);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_once, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(atomic_load(&ext_passed), 1);
    CHECK_OK(ABT_xstream_barrier_free(&barrier));
    CHECK(barrier == ABT_XSTREAM_BARRIER_NULL);

    /* N == 2: a tasklet on another ES meets the main ULT. */
    CHECK_OK(ABT_xstream_barrier_create(2, &barrier));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_task_create_on_xstream(es1, task_once, NULL, &task));
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(atomic_load(&task_passed), 2);

    /* Free while an external thread waits. */
    atomic_store(&ext_started, 0); /* before the thread may set it */
    CHECK_EQ(pthread_create(&th, NULL, ext_once, NULL), 0);
    while (!atomic_load(&ext_started))
        usleep(100);
    usleep(20000); /* let it get into the wait */
    ABT_xstream_barrier saved = barrier;
    CHECK_ERR(ABT_xstream_barrier_free(&barrier), ABT_ERR_XSTREAM_BARRIER);
    CHECK(barrier == saved);
    CHECK_EQ(atomic_load(&ext_passed), 1);
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(atomic_load(&ext_passed), 2);
    CHECK_OK(ABT_xstream_barrier_free(&barrier));

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    check_uninit();
    BB_TEST_END();
}
