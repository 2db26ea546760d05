/* ABT_barrier over many rounds with ULTs spread over 2 ESs: nobody passes
 * early. Each of N ULTs counts its arrival for the round before waiting and,
 * once through, finds the round's count equal to N (and never sees the next
 * round complete before it got there). Varying amounts of yielding between
 * rounds shuffle the arrival order. Then the barrier is reinitialised for
 * N + 1 and an external pthread (which sleeps in the kernel) joins the ULTs
 * for more rounds. get_num_waiters reports the configured count. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "bb_test.h"

#define NES 2
#define N 20
#define ROUNDS 200
#define EXT_ROUNDS 50

static ABT_barrier barrier;
static atomic_int arrived[ROUNDS + 1];
static atomic_int ext_arrived[EXT_ROUNDS + 1];
static atomic_int early, errors;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void pass_rounds(int id, int rounds, atomic_int *counts, int expect, int yields_in_kernel)
{
    unsigned seed = (unsigned)id * 2654435761u + 1;
    for (int r = 0; r < rounds; r++) {
        seed = seed * 1103515245u + 12345u;
        int spins = (int)((seed >> 16) % 4);
        for (int k = 0; k < spins; k++) {
            if (yields_in_kernel)
                sched_yield();
            else
                ABT_thread_yield();
        }
        atomic_fetch_add(&counts[r], 1);
        note(ABT_barrier_wait(barrier));
        if (atomic_load(&counts[r]) != expect)
            atomic_fetch_add(&early, 1);
        /* Nobody can have completed the next round without us. */
        if (atomic_load(&counts[r + 1]) >= expect)
            atomic_fetch_add(&early, 1);
    }
}

static void ult_rounds(void *arg)
{
    pass_rounds((int)(intptr_t)arg, ROUNDS, arrived, N, 0);
}

static void ult_ext_rounds(void *arg)
{
    pass_rounds((int)(intptr_t)arg, EXT_ROUNDS, ext_arrived, N + 1, 0);
}

static void *ext_rounds(void *arg)
{
    (void)arg;
    pass_rounds(N, EXT_ROUNDS, ext_arrived, N + 1, 1);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pools[NES];
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));

    CHECK_OK(ABT_barrier_create(N, &barrier));
    uint32_t n = 0;
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, N);

    ABT_thread t[N];
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], ult_rounds, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_EQ(atomic_load(&early), 0);
    for (int r = 0; r < ROUNDS; r++)
        CHECK_EQ(atomic_load(&arrived[r]), N);

    /* N ULTs and one external thread. */
    CHECK_OK(ABT_barrier_reinit(barrier, N + 1));
    CHECK_OK(ABT_barrier_get_num_waiters(barrier, &n));
    CHECK_EQ(n, N + 1);
    pthread_t ext;
    CHECK_EQ(pthread_create(&ext, NULL, ext_rounds, NULL), 0);
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], ult_ext_rounds, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(pthread_join(ext, NULL), 0);
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_EQ(atomic_load(&early), 0);
    for (int r = 0; r < EXT_ROUNDS; r++)
        CHECK_EQ(atomic_load(&ext_arrived[r]), N + 1);

    CHECK_OK(ABT_barrier_free(&barrier));
    CHECK(barrier == ABT_BARRIER_NULL);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
