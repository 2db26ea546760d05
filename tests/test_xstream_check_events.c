/* ABT_xstream_check_events may only be called by the ULT running the
 * scheduler: NULL scheduler (INV_SCHED), external caller (INV_XSTREAM), and
 * an ordinary ULT or the primary ULT (INV_THREAD) are refused. */
#include "bb_test.h"
#include <pthread.h>

static ABT_sched es_sched;
static int ext_ret = -1, ult_ret = -1;

static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_xstream_check_events(es_sched);
    return NULL;
}

static void ult_fn(void *arg)
{
    (void)arg;
    ult_ret = ABT_xstream_check_events(es_sched);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    ABT_sched primary_sched;
    CHECK_OK(ABT_xstream_get_main_sched(primary, &primary_sched));
    CHECK_ERR(ABT_xstream_check_events(ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_xstream_check_events(primary_sched), ABT_ERR_INV_THREAD);

    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_sched(es, &es_sched));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ult_ret, ABT_ERR_INV_THREAD);

    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_fn, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
