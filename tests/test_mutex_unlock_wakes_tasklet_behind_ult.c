/* An unlock wakes a tasklet queued behind a ULT of the tasklet's own ES.
 *
 * The primary ULT holds a plain mutex. A ULT on ES 1 queues on it first
 * (blocked), then a tasklet on ES 1 queues second: a tasklet waits asleep in
 * the kernel, holding ES 1. The primary ULT unlocks. Were only the first
 * waiter woken (the ULT), it could not run (ES 1 is held by the sleeping
 * tasklet) and nobody would wake the tasklet: both would wait for ever.
 * The unlock must wake the tasklet too (mutex.c, `holding`: while a waiter
 * that holds its ES is queued, an unlock wakes every waiter). */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mtx;
static atomic_int ult_got, task_about_to_lock, task_got;

static void ult_fn(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    atomic_fetch_add(&ult_got, 1);
    ABT_mutex_unlock(mtx);
}

static void task_fn(void *arg)
{
    (void)arg;
    atomic_store(&task_about_to_lock, 1);
    ABT_mutex_lock(mtx);
    atomic_fetch_add(&task_got, 1);
    ABT_mutex_unlock(mtx);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mtx));

    for (int round = 0; round < 5; round++) {
        atomic_store(&task_about_to_lock, 0);
        CHECK_OK(ABT_mutex_lock(mtx));
        ABT_thread ult;
        CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &ult));
        /* The ULT queues first. */
        ABT_thread_state state = ABT_THREAD_STATE_READY;
        while (state != ABT_THREAD_STATE_BLOCKED) {
            CHECK_OK(ABT_thread_get_state(ult, &state));
            usleep(100);
        }
        /* Then the tasklet, on the same ES. */
        ABT_task task;
        CHECK_OK(ABT_task_create(pool, task_fn, NULL, &task));
        while (!atomic_load(&task_about_to_lock))
            usleep(100);
        usleep(50000); /* let it queue (if it has not, the test only proves less) */
        CHECK_OK(ABT_mutex_unlock(mtx));
        CHECK_OK(ABT_thread_free(&ult));
        CHECK_OK(ABT_task_free(&task));
    }
    CHECK_EQ(atomic_load(&ult_got), 5);
    CHECK_EQ(atomic_load(&task_got), 5);

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
