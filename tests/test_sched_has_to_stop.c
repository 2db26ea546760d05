/* ABT_sched_has_to_stop: FALSE without a request; after a finish request
 * FALSE while work is still in the pools and TRUE once they are empty (the
 * running caller does not count); TRUE at once after an exit request. NULL:
 * INV_SCHED; external caller: INV_XSTREAM with *stop cleared. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_sched es_sched;
static ABT_pool es_pool;
static atomic_int child_done;
static ABT_bool r[6];
static int rets[6] = {-1, -1, -1, -1, -1, -1};

static void child(void *arg)
{
    (void)arg;
    atomic_store(&child_done, 1);
}

static void finish_probe(void *arg)
{
    (void)arg;
    rets[0] = ABT_sched_has_to_stop(es_sched, &r[0]);
    ABT_thread_create(es_pool, child, NULL, ABT_THREAD_ATTR_NULL, NULL);
    ABT_sched_finish(es_sched);
    rets[1] = ABT_sched_has_to_stop(es_sched, &r[1]); /* child pending */
    while (!atomic_load(&child_done))
        ABT_thread_yield();
    rets[2] = ABT_sched_has_to_stop(es_sched, &r[2]); /* pools empty */
}

static void exit_probe(void *arg)
{
    (void)arg;
    ABT_thread_create(es_pool, child, NULL, ABT_THREAD_ATTR_NULL, NULL);
    rets[3] = ABT_sched_has_to_stop(es_sched, &r[3]);
    ABT_sched_exit(es_sched);
    rets[4] = ABT_sched_has_to_stop(es_sched, &r[4]);
}

static int ext_ret = -1;
static ABT_bool ext_stop = ABT_TRUE;
static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_sched_has_to_stop(es_sched, &ext_stop);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    ABT_sched ps;
    CHECK_OK(ABT_xstream_get_main_sched(primary, &ps));
    ABT_bool stop = ABT_TRUE;
    CHECK_OK(ABT_sched_has_to_stop(ps, &stop));
    CHECK_EQ(stop, ABT_FALSE);
    CHECK_ERR(ABT_sched_has_to_stop(ABT_SCHED_NULL, &stop), ABT_ERR_INV_SCHED);

    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_sched(es, &es_sched));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_pool));

    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_fn, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(ext_stop, ABT_FALSE);

    ABT_thread t;
    CHECK_OK(ABT_thread_create(es_pool, finish_probe, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    for (int i = 0; i < 3; i++)
        CHECK_EQ(rets[i], ABT_SUCCESS);
    CHECK_EQ(r[0], ABT_FALSE);
    CHECK_EQ(r[1], ABT_FALSE);
    CHECK_EQ(r[2], ABT_TRUE);
    CHECK_OK(ABT_xstream_join(es)); /* the finish request ended it */

    CHECK_OK(ABT_xstream_revive(es));
    atomic_store(&child_done, 0);
    CHECK_OK(ABT_thread_create(es_pool, exit_probe, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(rets[3], ABT_SUCCESS);
    CHECK_EQ(rets[4], ABT_SUCCESS);
    CHECK_EQ(r[3], ABT_FALSE);
    CHECK_EQ(r[4], ABT_TRUE);
    CHECK_OK(ABT_xstream_join(es));
    /* The child may have been left in the pool by the exit: run it here. */
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    ABT_unit u = ABT_UNIT_NULL;
    CHECK_OK(ABT_pool_pop(es_pool, &u));
    if (u != ABT_UNIT_NULL)
        CHECK_OK(ABT_pool_push(main_pool, u));
    while (!atomic_load(&child_done))
        ABT_thread_yield();
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
