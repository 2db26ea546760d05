/* Two ULTs of a shared pool, running on ES 1, both join ES 1. REFERENCE.md
 * (ABT_xstream_join): a ULT running on the ES it joins leaves it, parked
 * until the ES stops, then goes back to its pool, where another ES runs it
 * and its join completes; INV_XSTREAM only if the caller is not a ULT whose
 * pool another scheduler shares. Here both may (the pool is also ES 2's),
 * so both joins must succeed, and both ULTs finish. ES 2 serves the pool
 * after a first pool where a ULT spins (no yield) until both have called
 * the join, so both run on ES 1. */
#include "bb_test.h"
#include <stdatomic.h>

static _Atomic(ABT_xstream) es1_handle; /* published once ABT_xstream_create returns */
static atomic_int called, finished;
static int ret[2] = {-1, -1};

static atomic_int stop_spin;
static void spinner(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_spin))
        ; /* keeps ES 2 off the shared pool */
}

static void joiner(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_xstream es1;
    while ((es1 = atomic_load(&es1_handle)) == ABT_XSTREAM_NULL)
        ; /* ES 1 may run this before its creator has the handle */
    atomic_fetch_add(&called, 1);
    ret[i] = ABT_xstream_join(es1);
    atomic_fetch_add(&finished, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    ABT_thread t[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_create(p, joiner, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &t[i]));
    /* ES 2 serves the pool too (so both may leave ES 1), after its first
     * pool, where a ULT spins until both have called the join on ES 1. */
    ABT_pool p2;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p2));
    ABT_thread spin;
    CHECK_OK(ABT_thread_create(p2, spinner, NULL, ABT_THREAD_ATTR_NULL, &spin));
    ABT_pool pools2[2] = {p2, p};
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools2, ABT_SCHED_CONFIG_NULL, &es2));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_RUNNING)
        CHECK_OK(ABT_thread_get_state(spin, &st));
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es1));
    atomic_store(&es1_handle, es1);
    while (atomic_load(&called) < 2)
        usleep(100);
    usleep(20000);
    atomic_store(&stop_spin, 1);
    CHECK_OK(ABT_thread_free(&spin));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(ret[0], ABT_SUCCESS);
    CHECK_EQ(ret[1], ABT_SUCCESS); /* was INV_XSTREAM: one self-joiner per ES */
    CHECK_EQ(atomic_load(&finished), 2);
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&p));
    CHECK_OK(ABT_pool_free(&p2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
