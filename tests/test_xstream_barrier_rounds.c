/* ABT_xstream_barrier across three ESs and an external pthread: the main ULT
 * of the primary ES, one ULT pinned to each secondary ES and an external
 * thread meet over many rounds (cyclic), and no caller leaves a round before
 * all have arrived in it. The same barrier then serves tasklets on the
 * secondary ESs (a tasklet may wait too). */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define NES 3
#define N (NES + 1) /* + external thread */
#define ROUNDS 200

static ABT_xstream_barrier barrier;
static atomic_int arrived[ROUNDS], early, errors;
static int ranks[NES];

static void rounds(void)
{
    for (int r = 0; r < ROUNDS; r++) {
        atomic_fetch_add(&arrived[r], 1);
        if (ABT_xstream_barrier_wait(barrier) != ABT_SUCCESS)
            atomic_fetch_add(&errors, 1);
        if (atomic_load(&arrived[r]) != N)
            atomic_fetch_add(&early, 1);
    }
}

static void pinned(void *arg)
{
    int i = (int)(intptr_t)arg;
    CHECK_OK(ABT_xstream_self_rank(&ranks[i]));
    rounds();
}

static atomic_int task_arrived, task_early;

static void task_fn(void *arg)
{
    (void)arg;
    atomic_fetch_add(&task_arrived, 1);
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    if (atomic_load(&task_arrived) != N)
        atomic_fetch_add(&task_early, 1);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    rounds();
    /* Second phase. */
    atomic_fetch_add(&task_arrived, 1);
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    if (atomic_load(&task_arrived) != N)
        atomic_fetch_add(&task_early, 1);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[NES];
    CHECK_OK(ABT_xstream_self(&es[0]));
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
    CHECK_OK(ABT_xstream_barrier_create(N, &barrier));

    ABT_thread ts[NES];
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_thread_create_on_xstream(es[i], pinned, (void *)(intptr_t)i,
                                              ABT_THREAD_ATTR_NULL, &ts[i]));
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_OK(ABT_xstream_self_rank(&ranks[0]));
    rounds();
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_thread_free(&ts[i]));
    CHECK_EQ(atomic_load(&early), 0);
    CHECK_EQ(atomic_load(&errors), 0);
    for (int i = 0; i < NES; i++)
        for (int j = i + 1; j < NES; j++)
            CHECK_NE(ranks[i], ranks[j]);

    /* Tasklets on the secondary ESs, the main ULT and the external thread. */
    ABT_task tasks[NES];
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_task_create_on_xstream(es[i], task_fn, NULL, &tasks[i]));
    atomic_fetch_add(&task_arrived, 1);
    CHECK_OK(ABT_xstream_barrier_wait(barrier));
    if (atomic_load(&task_arrived) != N)
        atomic_fetch_add(&task_early, 1);
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_task_free(&tasks[i]));
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(atomic_load(&task_early), 0);

    CHECK_OK(ABT_xstream_barrier_free(&barrier));
    for (int i = 1; i < NES; i++) {
        CHECK_OK(ABT_xstream_join(es[i]));
        CHECK_OK(ABT_xstream_free(&es[i]));
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
