/* Under sc and auto the predefined loop calls the tasklets of its first pool
 * on its ES's big stack, several in one visit (src/unit/switch.c,
 * run_tasklets_aside). From a pool it cannot look into, the visit takes
 * the unit after the last tasklet anyway, and a ULT taken so is handed to
 * the scheduler to run first in its next pass. Units of a FIFO pool served
 * by one ES must still run in the order they were pushed, each once:
 * mixed runs of tasklets and ULTs, more of them than a pass of the loop
 * runs (its event frequency), in a private FIFO, in the primary ES's own
 * pool and in a shared pool of a secondary ES, under every technique. */
#include "technique_util.h"

#define NUM_UNITS 600

static int order[NUM_UNITS];
static int next_slot;

static void record(void *arg)
{
    int slot = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED);
    if (slot < NUM_UNITS)
        order[slot] = (int)(intptr_t)arg;
}

/* Unit i is a ULT when the pattern says so: runs of 1 to 7 tasklets
 * between ULTs, and a few ULTs in a row. */
static int is_ult(int i)
{
    return (i * 7 + i / 5) % 9 < 2;
}

static void run_all(ABT_pool pool, int primary_runs_them)
{
    static ABT_thread units[NUM_UNITS];
    next_slot = 0;
    for (int i = 0; i < NUM_UNITS; i++) {
        void *arg = (void *)(intptr_t)i;
        if (is_ult(i))
            CHECK_OK(ABT_thread_create(pool, record, arg, ABT_THREAD_ATTR_NULL, &units[i]));
        else
            CHECK_OK(ABT_task_create(pool, record, arg, &units[i]));
    }
    if (primary_runs_them)
        CHECK_OK(ABT_thread_yield()); /* the scheduler runs them all, in passes */
    for (int i = 0; i < NUM_UNITS; i++)
        CHECK_OK(ABT_thread_free(&units[i]));
    CHECK_EQ(next_slot, NUM_UNITS);
    for (int i = 0; i < NUM_UNITS; i++)
        if (order[i] != i) {
            BB_FAIL_AT("[%s] unit %d ran %d-th", tq_name, order[i], i);
            break;
        }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    for (int t = 0; t < TQ_NUM; t++) {
        tq_init(t);
        ABT_xstream self, es;
        ABT_pool own, priv, shared;
        CHECK_OK(ABT_xstream_self(&self));
        CHECK_OK(ABT_xstream_get_main_pools(self, 1, &own));
        run_all(own, 1); /* the pool ABT_init gave the primary ES */

        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
        CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &priv));
        run_all(priv, 1); /* a private FIFO, looked into */

        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL,
                                          &es));
        run_all(shared, 0); /* another ES's shared pool */
        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_finalize());
    }
    BB_TEST_END();
}
