/* ABT_xstream_set_main_sched on a running ES: the caller must be a plain
 * ULT on that ES (REFERENCE.md: XSTREAM_STATE for a running ES and a caller
 * that is not a plain ULT on it). A scheduler's own ULT on that ES, the
 * ES's user-defined main scheduler or a stacked one, gets
 * ABT_ERR_XSTREAM_STATE, and the ES goes on with its scheduler. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_xstream es;
static atomic_int tried;
static int ret_main = -1, ret_stacked = -1;
static atomic_int ran;

static void run(ABT_sched sched)
{
    void *data;
    ABT_sched_get_data(sched, &data);
    int *ret = data;
    if (*ret == -1) {
        ABT_xstream me;
        ABT_xstream_self(&me);
        *ret = ABT_xstream_set_main_sched(me, ABT_SCHED_NULL);
        atomic_fetch_add(&tried, 1);
    }
    ABT_pool pool;
    ABT_sched_get_pools(sched, 1, 0, &pool);
    for (;;) {
        ABT_thread t = ABT_THREAD_NULL;
        ABT_pool_pop_thread(pool, &t);
        if (t != ABT_THREAD_NULL) {
            ABT_self_schedule(t, ABT_POOL_NULL);
            continue;
        }
        ABT_bool stop = ABT_FALSE;
        ABT_sched_has_to_stop(sched, &stop);
        if (stop)
            break;
        ABT_xstream_check_events(sched);
    }
}

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = run};
    ABT_pool p, q;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    ABT_sched main_s, stacked_s;
    CHECK_OK(ABT_sched_create(&def, 1, &p, ABT_SCHED_CONFIG_NULL, &main_s));
    CHECK_OK(ABT_sched_set_data(main_s, &ret_main));
    CHECK_OK(ABT_sched_create(&def, 1, &q, ABT_SCHED_CONFIG_NULL, &stacked_s));
    CHECK_OK(ABT_sched_set_data(stacked_s, &ret_stacked));
    CHECK_OK(ABT_xstream_create(main_s, &es));
    while (atomic_load(&tried) < 1)
        usleep(100);
    CHECK_OK(ABT_pool_add_sched(p, stacked_s));
    while (atomic_load(&tried) < 2)
        usleep(100);
    CHECK_EQ(ret_main, ABT_ERR_XSTREAM_STATE);
    CHECK_EQ(ret_stacked, ABT_ERR_XSTREAM_STATE);
    /* Both schedulers still work. */
    ABT_thread t[2];
    CHECK_OK(ABT_thread_create(p, work, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    CHECK_OK(ABT_thread_create(q, work, NULL, ABT_THREAD_ATTR_NULL, &t[1]));
    int err;
    while ((err = ABT_pool_add_sched(p, stacked_s)) == ABT_ERR_INV_SCHED)
        usleep(1000); /* its first run has not ended yet */
    CHECK_OK(err);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(atomic_load(&ran), 2);
    ABT_sched got;
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got == main_s);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&main_s));
    CHECK_OK(ABT_sched_free(&stacked_s));
    CHECK_OK(ABT_pool_free(&p));
    CHECK_OK(ABT_pool_free(&q));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
