/* A named ULT or tasklet stays TERMINATED (and queryable) after its function
 * returns until the user frees it; joining it then returns at once, and
 * joining twice is fine. It reports itself as named. */
#include <sched.h>
#include <time.h>
#include "bb_test.h"

static int ran;

static void body(void *arg)
{
    ABT_bool unnamed = ABT_TRUE;
    ABT_self_is_unnamed(&unnamed);
    if (unnamed == ABT_FALSE)
        __atomic_fetch_add(&ran, (int)(intptr_t)arg, __ATOMIC_SEQ_CST);
}

/* Poll (for up to 5 s) without joining. */
static void wait_terminated(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    do {
        if (ABT_thread_get_state(t, &st) != ABT_SUCCESS || st == ABT_THREAD_STATE_TERMINATED)
            break;
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &now);
    } while (now.tv_sec - start.tv_sec < 5);
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    ABT_thread ult;
    ABT_task task;
    CHECK_OK(ABT_thread_create(pool, body, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &ult));
    CHECK_OK(ABT_task_create(pool, body, (void *)(intptr_t)10, &task));
    /* Wait without joining: the units must not vanish on termination. */
    wait_terminated(ult);
    wait_terminated(task);
    struct timespec ts = {0, 20 * 1000 * 1000};
    nanosleep(&ts, NULL);

    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(ult, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    ABT_task_state tst;
    CHECK_OK(ABT_task_get_state(task, &tst));
    CHECK_EQ(tst, ABT_TASK_STATE_TERMINATED);
    CHECK_EQ(__atomic_load_n(&ran, __ATOMIC_SEQ_CST), 11); /* read without a join */

    void *arg = NULL;
    CHECK_OK(ABT_thread_get_arg(ult, &arg));
    CHECK(arg == (void *)(intptr_t)1);
    CHECK_OK(ABT_task_get_arg(task, &arg));
    CHECK(arg == (void *)(intptr_t)10);
    void (*f)(void *) = NULL;
    CHECK_OK(ABT_thread_get_thread_func(ult, &f));
    CHECK(f == body);
    ABT_bool unnamed = ABT_TRUE;
    CHECK_OK(ABT_thread_is_unnamed(ult, &unnamed));
    CHECK_EQ(unnamed, ABT_FALSE);
    unnamed = ABT_TRUE;
    CHECK_OK(ABT_task_is_unnamed(task, &unnamed));
    CHECK_EQ(unnamed, ABT_FALSE);

    CHECK_OK(ABT_thread_join(ult));
    CHECK_OK(ABT_thread_join(ult));
    CHECK_OK(ABT_task_join(task));
    CHECK_OK(ABT_task_join(task));
    CHECK_OK(ABT_thread_free(&ult));
    CHECK(ult == ABT_THREAD_NULL);
    CHECK_OK(ABT_task_free(&task));
    CHECK(task == ABT_TASK_NULL);
    /* A second free of the cleared handle is an invalid handle. */
    CHECK_ERR(ABT_thread_free(&ult), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_free(&task), ABT_ERR_INV_TASK);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
