/* ABT_task_revive reuses a terminated named tasklet with a new function and
 * argument and pushes it to the given pool, where it runs. ABT_thread_revive
 * accepts the tasklet too, and ABT_task_revive a ULT. Errors: NULL handle or
 * not terminated -> ABT_ERR_INV_TASK; NULL pool -> ABT_ERR_INV_POOL. */
#include "bb_test.h"

static int sum_a, sum_b;
static int rank_seen = -1;
static int release;

static void fa(void *arg)
{
    sum_a += (int)(intptr_t)arg;
}

static void fb(void *arg)
{
    sum_b += (int)(intptr_t)arg;
    ABT_self_get_xstream_rank(&rank_seen);
}

static void spin(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&release, __ATOMIC_ACQUIRE))
        ;
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

    ABT_task t;
    CHECK_OK(ABT_task_create(pool0, fa, (void *)(intptr_t)1, &t));
    CHECK_OK(ABT_task_join(t));
    CHECK_EQ(sum_a, 1);
    ABT_task before = t;
    CHECK_OK(ABT_task_revive(pool1, fb, (void *)(intptr_t)7, &t));
    CHECK(t == before);
    CHECK_OK(ABT_task_join(t));
    CHECK_EQ(sum_b, 7);
    CHECK_EQ(rank_seen, 1);
    void *arg;
    CHECK_OK(ABT_task_get_arg(t, &arg));
    CHECK(arg == (void *)(intptr_t)7);
    ABT_task_state st;
    CHECK_OK(ABT_task_get_state(t, &st));
    CHECK_EQ(st, ABT_TASK_STATE_TERMINATED);

    CHECK_OK(ABT_thread_revive(pool0, fa, (void *)(intptr_t)10, &t));
    CHECK_OK(ABT_task_join(t));
    CHECK_EQ(sum_a, 11);

    /* ABT_task_revive accepts a terminated ULT handle as well. */
    ABT_thread u;
    CHECK_OK(ABT_thread_create(pool1, fa, (void *)(intptr_t)100, ABT_THREAD_ATTR_NULL, &u));
    CHECK_OK(ABT_thread_join(u));
    CHECK_OK(ABT_task_revive(pool0, fa, (void *)(intptr_t)1000, &u));
    CHECK_OK(ABT_thread_join(u));
    CHECK_EQ(sum_a, 1111);
    CHECK_OK(ABT_thread_free(&u));
    sum_a = 11;

    ABT_task null_t = ABT_TASK_NULL;
    CHECK_ERR(ABT_task_revive(pool0, fa, NULL, &null_t), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_task_revive(ABT_POOL_NULL, fa, NULL, &t), ABT_ERR_INV_POOL);
    ABT_task live;
    CHECK_OK(ABT_task_create(pool1, spin, NULL, &live));
    CHECK_ERR(ABT_task_revive(pool1, fa, NULL, &live), ABT_ERR_INV_TASK);
    __atomic_store_n(&release, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_task_free(&live));
    CHECK_EQ(sum_a, 11);

    CHECK_OK(ABT_task_free(&t));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
