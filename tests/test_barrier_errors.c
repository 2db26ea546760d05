/* ABT_barrier_* error codes: before ABT_init and after ABT_finalize every
 * routine returns ABT_ERR_UNINITIALIZED (create also sets *out to NULL);
 * create(0) and reinit(0) -> ABT_ERR_INV_ARG (create leaves *out NULL); NULL
 * out-pointers -> ABT_ERR_INV_ARG; NULL handles -> ABT_ERR_INV_BARRIER;
 * get_num_waiters gives the configured count; a tasklet's wait ->
 * ABT_ERR_BARRIER (after the handle check); N == 1 returns at once for the
 * main ULT, another ULT and an external pthread, any number of times. */
#include "bb_test.h"
#include <pthread.h>
#include <stdint.h>

static ABT_barrier barrier;

static void check_uninit(void)
{
    ABT_barrier b = (ABT_barrier)(intptr_t)0x10;
    CHECK_ERR(ABT_barrier_create(2, &b), ABT_ERR_UNINITIALIZED);
    CHECK(b == ABT_BARRIER_NULL);
    ABT_barrier bogus = (ABT_barrier)(intptr_t)0x10;
    CHECK_ERR(ABT_barrier_reinit(bogus, 2), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_barrier_wait(bogus), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_barrier_wait(ABT_BARRIER_NULL), ABT_ERR_UNINITIALIZED);
    uint32_t n = 77;
    CHECK_ERR(ABT_barrier_get_num_waiters(bogus, &n), ABT_ERR_UNINITIALIZED);
    CHECK_EQ(n, 77);
    CHECK_ERR(ABT_barrier_free(&bogus), ABT_ERR_UNINITIALIZED);
    CHECK(bogus == (ABT_barrier)(intptr_t)0x10);
}

static void tasklet_fn(void *arg)
{
    (void)arg;
    CHECK_ERR(ABT_barrier_wait(ABT_BARRIER_NULL), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_wait(barrier), ABT_ERR_BARRIER);
    /* The queries are fine from a tasklet. */
    uint32_t n = 0;
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, 1);
}

static void ult_fn(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_barrier_wait(barrier));
}

static void *ext_fn(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_barrier_wait(barrier));
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_uninit();
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    CHECK_ERR(ABT_barrier_create(2, NULL), ABT_ERR_INV_ARG);
    ABT_barrier b = (ABT_barrier)(intptr_t)0x10;
    CHECK_ERR(ABT_barrier_create(0, &b), ABT_ERR_INV_ARG);
    CHECK(b == ABT_BARRIER_NULL);
    CHECK_ERR(ABT_barrier_free(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_barrier_free(&b), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_reinit(ABT_BARRIER_NULL, 2), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_reinit(ABT_BARRIER_NULL, 0), ABT_ERR_INV_BARRIER);
    CHECK_ERR(ABT_barrier_wait(ABT_BARRIER_NULL), ABT_ERR_INV_BARRIER);
    uint32_t n = 0;
    CHECK_ERR(ABT_barrier_get_num_waiters(ABT_BARRIER_NULL, &n), ABT_ERR_INV_BARRIER);

    CHECK_OK(ABT_barrier_create(5, &barrier));
    CHECK(barrier != ABT_BARRIER_NULL);
    CHECK_ERR(ABT_barrier_get_num_waiters(barrier, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, 5);
    CHECK_ERR(ABT_barrier_reinit(barrier, 0), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, 5);

    /* N == 1: nobody ever waits. */
    CHECK_OK(ABT_barrier_reinit(barrier, 1));
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, 1);
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_barrier_wait(barrier));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);

    /* Tasklet caller: refused even when it would not have to wait. */
    ABT_task task;
    CHECK_OK(ABT_task_create(pool, tasklet_fn, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    /* ... and the refusal did not count as an arrival. */
    CHECK_OK(ABT_barrier_reinit(barrier, 2));

    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK(barrier == ABT_BARRIER_NULL);
    CHECK_OK(ABT_finalize());
    check_uninit();
    BB_TEST_END();
}
