/* Creation with bad input: a NULL pool gives ABT_ERR_INV_POOL, a NULL ES
 * ABT_ERR_INV_XSTREAM, and in both cases the output handle is cleared first
 * (1.x behaviour). create_to needs a ULT caller: a tasklet gets
 * ABT_ERR_INV_THREAD and an external thread ABT_ERR_INV_XSTREAM. Plain
 * creation, however, is allowed from an external thread. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool g_pool;
static int ran;
static int tasklet_ret = -1;
static int ext_create_ret = -1, ext_create_to_ret = -1, ext_join_ret = -1;

static void body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
}

static void tasklet_fn(void *arg)
{
    (void)arg;
    ABT_thread t = (ABT_thread)(intptr_t)0x10;
    tasklet_ret = ABT_thread_create_to(g_pool, body, NULL, ABT_THREAD_ATTR_NULL, &t);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    ABT_thread t = ABT_THREAD_NULL;
    ext_create_ret = ABT_thread_create(g_pool, body, NULL, ABT_THREAD_ATTR_NULL, &t);
    if (ext_create_ret == ABT_SUCCESS)
        ext_join_ret = ABT_thread_free(&t);
    ABT_thread t2 = ABT_THREAD_NULL;
    ext_create_to_ret = ABT_thread_create_to(g_pool, body, NULL, ABT_THREAD_ATTR_NULL, &t2);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &g_pool));

    ABT_thread t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_create(ABT_POOL_NULL, body, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_INV_POOL);
    CHECK(t == ABT_THREAD_NULL);
    /* Unnamed creation with a NULL pool fails the same way. */
    CHECK_ERR(ABT_thread_create(ABT_POOL_NULL, body, NULL, ABT_THREAD_ATTR_NULL, NULL),
              ABT_ERR_INV_POOL);

    t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_create_on_xstream(ABT_XSTREAM_NULL, body, NULL, ABT_THREAD_ATTR_NULL,
                                           &t),
              ABT_ERR_INV_XSTREAM);
    CHECK(t == ABT_THREAD_NULL);

    /* create_to from the primary ULT with a NULL pool. */
    CHECK_ERR(ABT_thread_create_to(ABT_POOL_NULL, body, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_INV_POOL);

    /* A tasklet cannot create_to. */
    ABT_task task;
    CHECK_OK(ABT_task_create(g_pool, tasklet_fn, NULL, &task));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(tasklet_ret, ABT_ERR_INV_THREAD);

    /* External thread: create works, create_to is refused. */
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(ext_create_ret, ABT_SUCCESS);
    CHECK_EQ(ext_join_ret, ABT_SUCCESS);
    CHECK_EQ(ext_create_to_ret, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_free(&es));
    /* None of the refused calls created anything that ran. */
    CHECK_EQ(__atomic_load_n(&ran, __ATOMIC_SEQ_CST), 1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
