/* Unnamed units (no handle) are freed automatically when they terminate, and
 * that free runs their key destructors: unnamed ULTs and tasklets on the
 * primary ES and two secondary ESs each set a value; no destructor runs
 * while a unit is still alive (it checks after yielding), every value's
 * destructor runs exactly once after the units are done, and ABT_finalize
 * adds no second call. A key with a NULL destructor and a NULL value cause no
 * call. */
#include "bb_test.h"
#include <stdatomic.h>

#define NES 3
#define NULT 60
#define NTASK 60
#define N (NULT + NTASK)

static int vals[N];
static atomic_int calls[N], stray, early, finished;
static ABT_key kd, knull, kzero;

static void dtor(void *value)
{
    int *p = value;
    if (p >= vals && p < vals + N)
        atomic_fetch_add(&calls[p - vals], 1);
    else
        atomic_fetch_add(&stray, 1);
}

static void ult_fn(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_self_set_specific(kd, &vals[i]);
    ABT_self_set_specific(knull, &vals[i]);
    ABT_self_set_specific(kzero, NULL);
    for (int r = 0; r < 5; r++) {
        ABT_thread_yield();
        if (atomic_load(&calls[i]))
            atomic_fetch_add(&early, 1);
    }
    atomic_fetch_add(&finished, 1);
}

static void task_fn(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_self_set_specific(knull, &vals[i]);
    ABT_self_set_specific(kd, &vals[i]);
    ABT_self_set_specific(kzero, &vals[i]);
    ABT_self_set_specific(kzero, NULL);
    atomic_fetch_add(&finished, 1);
}

static int total(void)
{
    int n = 0;
    for (int i = 0; i < N; i++)
        n += atomic_load(&calls[i]);
    return n;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor, &kd));
    CHECK_OK(ABT_key_create(NULL, &knull));
    CHECK_OK(ABT_key_create(dtor, &kzero));
    ABT_xstream es[NES];
    ABT_pool pools[NES];
    CHECK_OK(ABT_xstream_self(&es[0]));
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
    for (int i = 0; i < NES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));

    for (int i = 0; i < NULT; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], ult_fn, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, NULL));
    for (int i = NULT; i < N; i++)
        CHECK_OK(ABT_task_create(pools[i % NES], task_fn, (void *)(intptr_t)i, NULL));

    /* Wait (yielding, ES 0 runs its share) until every destructor ran. */
    double deadline = ABT_get_wtime() + 10.0;
    while ((atomic_load(&finished) < N || total() < N) && ABT_get_wtime() < deadline)
        ABT_thread_yield();
    CHECK_EQ(atomic_load(&finished), N);
    CHECK_EQ(total(), N);
    CHECK_EQ(atomic_load(&early), 0);

    for (int i = 1; i < NES; i++) {
        CHECK_OK(ABT_xstream_join(es[i]));
        CHECK_OK(ABT_xstream_free(&es[i]));
    }
    CHECK_OK(ABT_key_free(&kd));
    CHECK_OK(ABT_key_free(&knull));
    CHECK_OK(ABT_key_free(&kzero));
    CHECK_OK(ABT_finalize());
    for (int i = 0; i < N; i++)
        CHECK_EQ(atomic_load(&calls[i]), 1);
    CHECK_EQ(atomic_load(&stray), 0);
    BB_TEST_END();
}
