/* Several callers join one ES at once (found by a stress audit: with two or
 * more joiners every caller hung in pthread_join of the same thread). In
 * each round, two external threads and two ULTs on the primary ES join ES 1,
 * which runs a few ULTs first; then ES 1 is revived for the next round, and
 * at the end freed. Every join returns ABT_SUCCESS and every ULT runs. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_xstream es1;
static ABT_pool pool1;
static atomic_int ran, go;

static void work(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_yield());
    atomic_fetch_add(&ran, 1);
}

static void *external_joiner(void *arg)
{
    (void)arg;
    while (!atomic_load(&go)) {
    }
    CHECK_OK(ABT_xstream_join(es1));
    return NULL;
}

static void ult_joiner(void *arg)
{
    (void)arg;
    while (!atomic_load(&go))
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_xstream_join(es1));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool1, ABT_SCHED_CONFIG_NULL, &es1));
    ABT_xstream self;
    ABT_pool mine;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &mine));
    int rounds = BB_TEST_SIZE(100, 20);
    for (int r = 0; r < rounds; r++) {
        atomic_store(&go, 0);
        ABT_thread works[4], joiners[2];
        for (int i = 0; i < 4; i++)
            CHECK_OK(ABT_thread_create(pool1, work, NULL, ABT_THREAD_ATTR_NULL, &works[i]));
        pthread_t ext[2];
        for (int i = 0; i < 2; i++) {
            CHECK(pthread_create(&ext[i], NULL, external_joiner, NULL) == 0);
            CHECK_OK(ABT_thread_create(mine, ult_joiner, NULL, ABT_THREAD_ATTR_NULL, &joiners[i]));
        }
        atomic_store(&go, 1);
        for (int i = 0; i < 2; i++) {
            CHECK_OK(ABT_thread_free(&joiners[i]));
            CHECK(pthread_join(ext[i], NULL) == 0);
        }
        ABT_xstream_state state;
        CHECK_OK(ABT_xstream_get_state(es1, &state));
        CHECK_EQ(state, ABT_XSTREAM_STATE_TERMINATED);
        for (int i = 0; i < 4; i++)
            CHECK_OK(ABT_thread_free(&works[i]));
        CHECK_OK(ABT_xstream_revive(es1));
    }
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&pool1));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&ran), 4 * rounds);
    BB_TEST_END();
}
