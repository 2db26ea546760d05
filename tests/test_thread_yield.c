/* ABT_thread_yield / ABT_self_yield: two ULTs on one ES alternate strictly
 * (FIFO pool). From a tasklet or an external thread ABT_thread_yield returns
 * ABT_SUCCESS and does nothing, while ABT_self_yield reports
 * ABT_ERR_INV_THREAD (tasklet) or ABT_ERR_INV_XSTREAM (external). The primary
 * ULT can yield with nothing else to run. */
#include <pthread.h>
#include "bb_test.h"

#define ROUNDS 50

static int trace[4 * ROUNDS + 8];
static int pos;
static ABT_pool g_pool;
static ABT_thread ua, ub;
static int r_task_thread_yield = -1, r_task_self_yield = -1;
static int r_ext_thread_yield = -1, r_ext_self_yield = -1;
static int task_pos_before = -1, task_pos_after = -1;

static void ult(void *arg)
{
    int who = (int)(intptr_t)arg;
    for (int i = 0; i < ROUNDS; i++) {
        trace[pos++] = who;
        if (who == 0)
            ABT_thread_yield();
        else
            ABT_self_yield();
    }
}

static void task_fn(void *arg)
{
    (void)arg;
    task_pos_before = pos;
    r_task_thread_yield = ABT_thread_yield();
    r_task_self_yield = ABT_self_yield();
    task_pos_after = pos; /* nothing else ran on this ES meanwhile */
}

static void setup(void *arg)
{
    (void)arg;
    ABT_thread_create(g_pool, ult, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &ua);
    ABT_thread_create(g_pool, ult, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &ub);
}

static ABT_task g_task;
static ABT_thread g_marker;

static void marker(void *arg)
{
    (void)arg;
    pos++;
}

static void setup2(void *arg)
{
    (void)arg;
    ABT_task_create(g_pool, task_fn, NULL, &g_task);
    ABT_thread_create(g_pool, marker, NULL, ABT_THREAD_ATTR_NULL, &g_marker);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext_thread_yield = ABT_thread_yield();
    r_ext_self_yield = ABT_self_yield();
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &g_pool));

    /* The primary ULT alone on its ES: yield comes straight back. */
    CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_self_yield());

    ABT_thread s;
    CHECK_OK(ABT_thread_create(g_pool, setup, NULL, ABT_THREAD_ATTR_NULL, &s));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_thread_free(&ua));
    CHECK_OK(ABT_thread_free(&ub));
    CHECK_EQ(pos, 2 * ROUNDS);
    int alternating = 1;
    for (int i = 0; i < 2 * ROUNDS; i++)
        if (trace[i] != (i & 1))
            alternating = 0;
    CHECK(alternating);

    /* A tasklet queued before a marker ULT: its yields must not let the
     * marker run. */
    CHECK_OK(ABT_thread_create(g_pool, setup2, NULL, ABT_THREAD_ATTR_NULL, &s));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_task_free(&g_task));
    CHECK_OK(ABT_thread_free(&g_marker));
    CHECK_EQ(pos, 2 * ROUNDS + 1);
    CHECK_EQ(r_task_thread_yield, ABT_SUCCESS);
    CHECK_EQ(r_task_self_yield, ABT_ERR_INV_THREAD);
    CHECK_EQ(task_pos_before, task_pos_after);

    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext_thread_yield, ABT_SUCCESS);
    CHECK_EQ(r_ext_self_yield, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
