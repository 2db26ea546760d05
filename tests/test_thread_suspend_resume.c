/* ABT_self_suspend + ABT_thread_resume: a suspended ULT is BLOCKED, is not
 * run again until resumed, and continues after the suspend point once
 * resumed - by a ULT on another ES, by the primary ULT, or by an external
 * pthread. Resuming a ULT that is not BLOCKED (READY, RUNNING, TERMINATED,
 * or already resumed) gives ABT_ERR_THREAD; NULL or a tasklet gives
 * ABT_ERR_INV_THREAD. Suspending from a tasklet/external thread fails. */
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include "bb_test.h"

static int stage[3]; /* polled across ESs: atomic */
static int passes[3];
static ABT_thread sleeper;
static int r_resume_by_ult = -1, r_ext = -1, r_task_suspend = -1, r_ext_suspend = -1;

static void suspender(void *arg)
{
    int idx = (int)(intptr_t)arg;
    __atomic_store_n(&stage[idx], 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&passes[idx], 1, __ATOMIC_SEQ_CST);
    ABT_self_suspend();
    __atomic_store_n(&stage[idx], 2, __ATOMIC_RELEASE);
}

static void resumer(void *arg)
{
    (void)arg;
    r_resume_by_ult = ABT_thread_resume(sleeper);
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task_suspend = ABT_self_suspend();
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext_suspend = ABT_self_suspend();
    r_ext = ABT_thread_resume(sleeper);
    return NULL;
}

/* Poll (for up to 5 s) until the ULT has suspended itself. */
static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        if (ABT_thread_get_state(t, &st) != ABT_SUCCESS || st == ABT_THREAD_STATE_BLOCKED)
            break;
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec - start.tv_sec < 5);
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
}

static void noop(void *arg)
{
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es1, es2;
    ABT_pool pool0, pool1, pool2;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));
    struct timespec ts = {0, 20 * 1000 * 1000};

    /* 1: resumed by a ULT on another ES. */
    CHECK_OK(ABT_thread_create(pool1, suspender, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL,
                               &sleeper));
    wait_blocked(sleeper);
    nanosleep(&ts, NULL);
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(sleeper, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_EQ(__atomic_load_n(&stage[0], __ATOMIC_ACQUIRE), 1);
    ABT_thread r;
    CHECK_OK(ABT_thread_create(pool2, resumer, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_OK(ABT_thread_free(&r));
    CHECK_EQ(r_resume_by_ult, ABT_SUCCESS);
    /* Resumed once already: a second resume finds it not BLOCKED. */
    CHECK_ERR(ABT_thread_resume(sleeper), ABT_ERR_THREAD);
    CHECK_OK(ABT_thread_join(sleeper));
    CHECK_EQ(__atomic_load_n(&stage[0], __ATOMIC_ACQUIRE), 2);
    CHECK_EQ(__atomic_load_n(&passes[0], __ATOMIC_SEQ_CST), 1);
    CHECK_ERR(ABT_thread_resume(sleeper), ABT_ERR_THREAD); /* TERMINATED */
    CHECK_OK(ABT_thread_free(&sleeper));

    /* 2: resumed by an external pthread. */
    CHECK_OK(ABT_thread_create(pool1, suspender, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL,
                               &sleeper));
    wait_blocked(sleeper);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_SUCCESS);
    CHECK_EQ(r_ext_suspend, ABT_ERR_INV_XSTREAM);
    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_EQ(__atomic_load_n(&stage[1], __ATOMIC_ACQUIRE), 2);
    CHECK_EQ(__atomic_load_n(&passes[1], __ATOMIC_SEQ_CST), 1);

    /* 3: a ULT of the primary ES suspends; the primary ULT resumes it. */
    CHECK_OK(ABT_thread_create(pool0, suspender, (void *)(intptr_t)2, ABT_THREAD_ATTR_NULL,
                               &sleeper));
    /* A READY ULT is not suspended. */
    CHECK_ERR(ABT_thread_resume(sleeper), ABT_ERR_THREAD);
    while (__atomic_load_n(&stage[2], __ATOMIC_ACQUIRE) == 0)
        ABT_thread_yield();
    CHECK_OK(ABT_thread_get_state(sleeper, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    for (int i = 0; i < 10; i++)
        ABT_thread_yield(); /* it stays put while blocked */
    CHECK_EQ(__atomic_load_n(&stage[2], __ATOMIC_ACQUIRE), 1);
    CHECK_EQ(__atomic_load_n(&passes[2], __ATOMIC_SEQ_CST), 1);
    CHECK_OK(ABT_thread_resume(sleeper));
    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_EQ(__atomic_load_n(&stage[2], __ATOMIC_ACQUIRE), 2);

    /* Errors. */
    CHECK_ERR(ABT_thread_resume(ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_resume(ABT_TASK_NULL), ABT_ERR_INV_THREAD);
    ABT_thread self;
    CHECK_OK(ABT_thread_self(&self));
    CHECK_ERR(ABT_thread_resume(self), ABT_ERR_THREAD); /* RUNNING */
    ABT_task tk;
    CHECK_OK(ABT_task_create(pool0, noop, NULL, &tk));
    CHECK_ERR(ABT_thread_resume(tk), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_task_free(&tk));
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &tk));
    CHECK_OK(ABT_task_free(&tk));
    CHECK_EQ(r_task_suspend, ABT_ERR_INV_THREAD);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
