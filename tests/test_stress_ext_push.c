/* An external pthread (not an ES) feeds work to a secondary ES: it creates
 * ULTs directly in that ES's pool, and it moves ULTs parked in an unscheduled
 * pool into that ES's pool with ABT_pool_pop / ABT_pool_push. All of them run
 * on the ES, exactly once. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define N 3000

static ABT_pool es_pool, park;
static ABT_xstream es;
static atomic_int direct_ran, moved_ran, wrong_es, ext_errors;

static void direct(void *arg)
{
    (void)arg;
    ABT_xstream self;
    if (ABT_self_get_xstream(&self) != ABT_SUCCESS || self != es)
        atomic_fetch_add(&wrong_es, 1);
    atomic_fetch_add(&direct_ran, 1);
}

static void moved(void *arg)
{
    (void)arg;
    ABT_xstream self;
    ABT_pool last;
    if (ABT_self_get_xstream(&self) != ABT_SUCCESS || self != es)
        atomic_fetch_add(&wrong_es, 1);
    if (ABT_self_get_last_pool(&last) != ABT_SUCCESS || last != es_pool)
        atomic_fetch_add(&wrong_es, 1);
    ABT_thread_yield();
    atomic_fetch_add(&moved_ran, 1);
}

static void *feeder(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        if (ABT_thread_create(es_pool, direct, NULL, ABT_THREAD_ATTR_NULL, NULL) != ABT_SUCCESS)
            atomic_fetch_add(&ext_errors, 1);
        ABT_unit u = ABT_UNIT_NULL;
        if (ABT_pool_pop(park, &u) != ABT_SUCCESS || u == ABT_UNIT_NULL ||
            ABT_pool_push(es_pool, u) != ABT_SUCCESS)
            atomic_fetch_add(&ext_errors, 1);
    }
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_pool));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &park));
    ABT_thread *t = malloc(sizeof(ABT_thread) * N);
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(park, moved, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, feeder, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(atomic_load(&ext_errors), 0);
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_EQ(atomic_load(&direct_ran), N);
    CHECK_EQ(atomic_load(&moved_ran), N);
    CHECK_EQ(atomic_load(&wrong_es), 0);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(park, &size));
    CHECK_EQ(size, 0);
    free(t);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&park));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
