/* ABT_xstream_join waits until the ES's pools are drained (work pushed before
 * the join, work that yields, work created by that work), leaves the ES
 * TERMINATED but counted, and a second join returns at once; ABT_xstream_free
 * of a running ES drains it the same way. Joining the primary ES, or joining
 * or freeing the ES running the caller (ULT or tasklet), is
 * ABT_ERR_INV_XSTREAM. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 300

static ABT_pool es_pool;
static ABT_xstream es;
static atomic_int done, spawned_done;
static int self_join_ult = -1, self_join_task = -1, join_primary_ret = -1, self_free_ult = -1;

static void spawned(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    atomic_fetch_add(&spawned_done, 1);
}

static void worker(void *arg)
{
    long i = (long)arg;
    for (int k = 0; k < 4; k++)
        ABT_thread_yield();
    if (i % 10 == 0)
        usleep(200);
    if (i % 3 == 0)
        ABT_thread_create(es_pool, spawned, NULL, ABT_THREAD_ATTR_NULL, NULL);
    atomic_fetch_add(&done, 1);
}

static void self_joiner(void *arg)
{
    ABT_xstream primary = (ABT_xstream)arg;
    self_join_ult = ABT_xstream_join(es);
    join_primary_ret = ABT_xstream_join(primary);
    ABT_xstream copy = es;
    self_free_ult = ABT_xstream_free(&copy);
    if (copy != es)
        self_free_ult = -2;
}

static void self_joiner_task(void *arg)
{
    (void)arg;
    self_join_task = ABT_xstream_join(es);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_ERR(ABT_xstream_join(primary), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_pool));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(es_pool, self_joiner, primary, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(self_join_ult, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(join_primary_ret, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(self_free_ult, ABT_ERR_INV_XSTREAM);
    ABT_task k;
    CHECK_OK(ABT_task_create(es_pool, self_joiner_task, NULL, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(self_join_task, ABT_ERR_INV_XSTREAM);
    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(es, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);

    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(es_pool, worker, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_EQ(atomic_load(&done), N);
    CHECK_EQ(atomic_load(&spawned_done), (N + 2) / 3);
    size_t size = 99;
    CHECK_OK(ABT_pool_get_size(es_pool, &size));
    CHECK_EQ(size, 0);
    CHECK_OK(ABT_xstream_get_state(es, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_TERMINATED);
    int num = 0;
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 2);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 1);

    /* ABT_xstream_free on a running ES drains it the same way. */
    atomic_store(&done, 0);
    atomic_store(&spawned_done, 0);
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_pool));
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(es_pool, worker, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&done), N);
    CHECK_EQ(atomic_load(&spawned_done), (N + 2) / 3);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
