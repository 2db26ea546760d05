/* Two secondary ESs share one MPMC pool under load: 100,000 unnamed ULTs
 * (created from the primary ULT while the ESs are already running), each
 * incrementing a counter and yielding three times. The joins return only
 * after all of them ran: the counts are exact. */
#include "bb_test.h"
#include <stdatomic.h>

#define N BB_TEST_SIZE(100000, 5000)
#define YIELDS 3

static atomic_long started, finished, yields;
static atomic_long per_es[2];
static ABT_xstream es[2];

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add_explicit(&started, 1, memory_order_relaxed);
    for (int i = 0; i < YIELDS; i++) {
        ABT_thread_yield();
        atomic_fetch_add_explicit(&yields, 1, memory_order_relaxed);
    }
    ABT_xstream self;
    if (ABT_self_get_xstream(&self) == ABT_SUCCESS)
        atomic_fetch_add_explicit(&per_es[self == es[1]], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&finished, 1, memory_order_relaxed);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL,
                                          &es[i]));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, NULL));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_join(es[i]));
    CHECK_EQ(atomic_load(&started), N);
    CHECK_EQ(atomic_load(&finished), N);
    CHECK_EQ(atomic_load(&yields), (long)N * YIELDS);
    CHECK_EQ(atomic_load(&per_es[0]) + atomic_load(&per_es[1]), N);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_total_size(pool, &size));
    CHECK_EQ(size, 0);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
