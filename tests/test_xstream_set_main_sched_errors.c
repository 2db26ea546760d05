/* ABT_xstream_set_main_sched / _basic refusals: NULL ES (INV_XSTREAM); a
 * running ES from a caller not on it (ABT_ERR_XSTREAM_STATE); a scheduler
 * already in use (INV_SCHED; also for xstream_create / create_with_rank);
 * external callers (INV_XSTREAM) and tasklets (INV_THREAD) even for a
 * terminated ES; bad num_pools (INV_ARG) and predef (INV_SCHED_PREDEF). A
 * refused call leaves the ES's scheduler unchanged. */
#include "bb_test.h"
#include <pthread.h>

static ABT_xstream es;
static ABT_sched fresh;
static int ext_ret = -1, ext_basic_ret = -1, task_ret = -1, task_basic_ret = -1;

static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_xstream_set_main_sched(es, fresh);
    ext_basic_ret = ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 0, NULL);
    return NULL;
}

static void task_fn(void *arg)
{
    (void)arg;
    task_ret = ABT_xstream_set_main_sched(es, fresh);
    task_basic_ret = ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 0, NULL);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_sched es_sched;
    CHECK_OK(ABT_xstream_get_main_sched(es, &es_sched));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &fresh));

    CHECK_ERR(ABT_xstream_set_main_sched(ABT_XSTREAM_NULL, fresh), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(ABT_XSTREAM_NULL, ABT_SCHED_BASIC, 0, NULL),
              ABT_ERR_INV_XSTREAM);

    /* Running ES, caller elsewhere. */
    CHECK_ERR(ABT_xstream_set_main_sched(es, fresh), ABT_ERR_XSTREAM_STATE);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 0, NULL),
              ABT_ERR_XSTREAM_STATE);
    ABT_sched got;
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got == es_sched);

    /* Scheduler in use (main scheduler of a running ES). */
    ABT_xstream other = (ABT_xstream)(void *)0x1;
    CHECK_ERR(ABT_xstream_create(es_sched, &other), ABT_ERR_INV_SCHED);
    CHECK(other == ABT_XSTREAM_NULL);
    CHECK_ERR(ABT_xstream_create_with_rank(es_sched, 9, &other), ABT_ERR_INV_SCHED);
    ABT_sched primary_sched;
    CHECK_OK(ABT_xstream_get_main_sched(primary, &primary_sched));
    CHECK_ERR(ABT_xstream_create(primary_sched, &other), ABT_ERR_INV_SCHED);

    CHECK_OK(ABT_xstream_join(es));
    /* Terminated ES: in-use scheduler, bad arguments. */
    CHECK_ERR(ABT_xstream_set_main_sched(es, primary_sched), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, -1, NULL),
              ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(es, (ABT_sched_predef)77, 0, NULL),
              ABT_ERR_INV_SCHED_PREDEF);

    /* External thread and tasklet callers, even though the ES is terminated. */
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_fn, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(ext_basic_ret, ABT_ERR_INV_XSTREAM);
    if (ext_ret == ABT_SUCCESS || ext_basic_ret == ABT_SUCCESS)
        BB_TEST_END(); /* schedulers were swapped and freed: stop before using them */
    ABT_task k;
    CHECK_OK(ABT_task_create(main_pool, task_fn, NULL, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(task_ret, ABT_ERR_INV_THREAD);
    CHECK_EQ(task_basic_ret, ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got == es_sched);
    if (got != es_sched)
        BB_TEST_END(); /* schedulers were swapped: cleaning up would double free */

    /* The fresh scheduler was never attached: the user frees it. */
    CHECK_OK(ABT_sched_free(&fresh));
    CHECK(fresh == ABT_SCHED_NULL);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
