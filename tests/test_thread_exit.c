/* ABT_thread_exit / ABT_self_exit end the calling ULT at once (code after the
 * call never runs, even from a nested function); a named ULT is then
 * TERMINATED and its joiner wakes. The primary ULT may not exit
 * (INV_THREAD), nor may a tasklet (INV_THREAD); an external thread gets
 * INV_XSTREAM. */
#include <pthread.h>
#include "bb_test.h"

static int reached_after;
static int steps;
static int r_task_thread_exit = -1, r_task_self_exit = -1, r_ext_thread = -1, r_ext_self = -1;

static void nested_exit(int use_self)
{
    __atomic_fetch_add(&steps, 1, __ATOMIC_SEQ_CST);
    if (use_self)
        ABT_self_exit();
    else
        ABT_thread_exit();
    __atomic_fetch_add(&reached_after, 1, __ATOMIC_SEQ_CST);
}

static void body(void *arg)
{
    for (int i = 0; i < 3; i++)
        ABT_thread_yield();
    nested_exit((int)(intptr_t)arg);
    __atomic_fetch_add(&reached_after, 1, __ATOMIC_SEQ_CST);
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task_thread_exit = ABT_thread_exit();
    r_task_self_exit = ABT_self_exit();
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext_thread = ABT_thread_exit();
    r_ext_self = ABT_self_exit();
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_thread t[4];
    CHECK_OK(ABT_thread_create(pool0, body, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_OK(ABT_thread_create(pool0, body, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &t[1]));
    CHECK_OK(ABT_thread_create(pool1, body, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &t[2]));
    CHECK_OK(ABT_thread_create(pool1, body, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &t[3]));
    for (int i = 0; i < 4; i++) {
        CHECK_OK(ABT_thread_join(t[i]));
        ABT_thread_state st;
        CHECK_OK(ABT_thread_get_state(t[i], &st));
        CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
        CHECK_OK(ABT_thread_free(&t[i]));
    }
    CHECK_EQ(__atomic_load_n(&steps, __ATOMIC_SEQ_CST), 4);
    CHECK_EQ(reached_after, 0);

    /* Unnamed ULTs that exit are reclaimed; just make sure they finish. */
    for (int i = 0; i < 100; i++)
        CHECK_OK(ABT_thread_create(pool1, body, (void *)(intptr_t)(i & 1), ABT_THREAD_ATTR_NULL,
                                   NULL));
    while (__atomic_load_n(&steps, __ATOMIC_SEQ_CST) < 104)
        ABT_thread_yield();
    CHECK_EQ(reached_after, 0);

    CHECK_ERR(ABT_thread_exit(), ABT_ERR_INV_THREAD); /* primary ULT */
    CHECK_ERR(ABT_self_exit(), ABT_ERR_INV_THREAD);

    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &tk));
    CHECK_OK(ABT_task_free(&tk));
    CHECK_EQ(r_task_thread_exit, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_self_exit, ABT_ERR_INV_THREAD);

    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext_thread, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(r_ext_self, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
