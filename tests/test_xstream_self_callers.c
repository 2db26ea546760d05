/* ABT_xstream_self / ABT_xstream_self_rank: from an external pthread
 * ABT_ERR_INV_XSTREAM (rank untouched); from a tasklet on a secondary ES they
 * work; from the primary ULT rank 0. */
#include "bb_test.h"
#include <pthread.h>

static int ext_self = -1, ext_rank_ret = -1, ext_rank = 55;
static ABT_xstream ext_xs = (ABT_xstream)(void *)0x1;

static void *ext_fn(void *arg)
{
    (void)arg;
    ext_self = ABT_xstream_self(&ext_xs);
    ext_rank_ret = ABT_xstream_self_rank(&ext_rank);
    return NULL;
}

static ABT_xstream task_xs;
static int task_rank = -1, task_ret1 = -1, task_ret2 = -1;

static void task_fn(void *arg)
{
    (void)arg;
    task_ret1 = ABT_xstream_self(&task_xs);
    task_ret2 = ABT_xstream_self_rank(&task_rank);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    int rank = -1;
    CHECK_OK(ABT_xstream_self_rank(&rank));
    CHECK_EQ(rank, 0);

    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, ext_fn, NULL), 0);
    pthread_join(t, NULL);
    CHECK_EQ(ext_self, ABT_ERR_INV_XSTREAM);
    CHECK(ext_xs == ABT_XSTREAM_NULL); /* 1.x clears the output on error */
    CHECK_EQ(ext_rank_ret, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(ext_rank, 55);

    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 4, &es));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_task k;
    CHECK_OK(ABT_task_create(pool, task_fn, NULL, &k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(task_ret1, ABT_SUCCESS);
    CHECK_EQ(task_ret2, ABT_SUCCESS);
    CHECK(task_xs == es);
    CHECK_EQ(task_rank, 4);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
