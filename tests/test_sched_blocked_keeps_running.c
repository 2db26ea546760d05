/* A main scheduler asked to finish (ABT_xstream_join) keeps running while a
 * ULT of its pool is suspended: the join does not complete until that ULT is
 * resumed and has finished. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int sleeper_done, join_done;
static int join_ret = -1;

static void sleeper(void *arg)
{
    (void)arg;
    ABT_self_suspend();
    atomic_store(&sleeper_done, 1);
}

static void joiner(void *arg)
{
    join_ret = ABT_xstream_join(*(ABT_xstream *)arg);
    atomic_store(&join_done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool main_pool, pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    ABT_thread s, j;
    CHECK_OK(ABT_thread_create(pool, sleeper, NULL, ABT_THREAD_ATTR_NULL, &s));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(s, &st));
        usleep(100);
    }
    size_t total = 0;
    CHECK_OK(ABT_pool_get_total_size(pool, &total));
    CHECK_EQ(total, 1);

    CHECK_OK(ABT_thread_create(main_pool, joiner, &es, ABT_THREAD_ATTR_NULL, &j));
    for (int i = 0; i < 200; i++) {
        ABT_thread_yield();
        usleep(100);
    }
    CHECK_EQ(atomic_load(&join_done), 0);
    ABT_xstream_state xs;
    CHECK_OK(ABT_xstream_get_state(es, &xs));
    CHECK_EQ(xs, ABT_XSTREAM_STATE_RUNNING);

    CHECK_OK(ABT_thread_resume(s));
    CHECK_OK(ABT_thread_free(&j));
    CHECK_EQ(join_ret, ABT_SUCCESS);
    CHECK_EQ(atomic_load(&sleeper_done), 1);
    CHECK_OK(ABT_xstream_get_state(es, &xs));
    CHECK_EQ(xs, ABT_XSTREAM_STATE_TERMINATED);
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
