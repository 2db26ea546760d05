/* ABT_barrier shared by ULTs on two ESs, the main ULT and external pthreads:
 * over many rounds (cyclic reuse) every caller passes every round, and none
 * leaves a round before all N have arrived in it. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define NULTS 6
#define NEXT 2
#define N (NULTS + NEXT + 1)
#define ROUNDS 100

static ABT_barrier barrier;
static atomic_int arrived[ROUNDS], early, errors;

static void rounds(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        atomic_fetch_add(&arrived[r], 1);
        if (ABT_barrier_wait(barrier) != ABT_SUCCESS)
            atomic_fetch_add(&errors, 1);
        if (atomic_load(&arrived[r]) != N)
            atomic_fetch_add(&early, 1);
    }
}

static void ult_fn(void *arg)
{
    (void)arg;
    rounds();
}

static void *ext_fn(void *arg)
{
    (void)arg;
    rounds();
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[2];
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[1]));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));
    CHECK_OK(ABT_barrier_create(N, &barrier));

    ABT_thread ts[NULTS];
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_create(pools[i % 2], ult_fn, NULL, ABT_THREAD_ATTR_NULL, &ts[i]));
    pthread_t th[NEXT];
    for (int i = 0; i < NEXT; i++)
        CHECK_EQ(pthread_create(&th[i], NULL, ext_fn, NULL), 0);
    rounds();
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_free(&ts[i]));
    for (int i = 0; i < NEXT; i++)
        CHECK_EQ(pthread_join(th[i], NULL), 0);
    CHECK_EQ(atomic_load(&early), 0);
    CHECK_EQ(atomic_load(&errors), 0);
    for (int r = 0; r < ROUNDS; r++)
        CHECK_EQ(atomic_load(&arrived[r]), N);

    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK_OK(ABT_xstream_join(es[1]));
    CHECK_OK(ABT_xstream_free(&es[1]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
