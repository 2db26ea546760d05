/* Multi-ES fork-join: on each of three ESs (the primary and two secondary), a
 * driver ULT repeatedly creates a batch of ULTs into its ES's private (PRIV)
 * pool, joins and frees them, and checks their results. Each ES also has a
 * shared pool through which the drivers arrive. */
#include "bb_test.h"

#define NES 3
#define ROUNDS 100
#define BATCH 64

typedef struct {
    ABT_pool priv;
    long sum;
    int bad_es;
    ABT_xstream es;
} driver_t;

typedef struct {
    long in, out;
    ABT_xstream where;
} job_t;

static void child(void *arg)
{
    job_t *j = arg;
    ABT_thread_yield();
    ABT_self_get_xstream(&j->where);
    j->out = j->in * 2 + 1;
}

static void driver(void *arg)
{
    driver_t *d = arg;
    ABT_thread t[BATCH];
    job_t jobs[BATCH];
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < BATCH; i++) {
            jobs[i].in = r * BATCH + i;
            jobs[i].out = -1;
            if (ABT_thread_create(d->priv, child, &jobs[i], ABT_THREAD_ATTR_NULL, &t[i]) !=
                ABT_SUCCESS)
                t[i] = ABT_THREAD_NULL;
        }
        for (int i = 0; i < BATCH; i++) {
            if (t[i] == ABT_THREAD_NULL || ABT_thread_free(&t[i]) != ABT_SUCCESS)
                continue;
            d->sum += jobs[i].out;
            if (jobs[i].where != d->es)
                d->bad_es++;
        }
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[NES];
    ABT_pool shared[NES];
    driver_t d[NES];
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_get_main_pools(es[0], 1, &shared[0]));
    /* The primary ES gets a private pool next to its main pool. */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &d[0].priv));
    ABT_pool p0[2] = {shared[0], d[0].priv};
    CHECK_OK(ABT_xstream_set_main_sched_basic(es[0], ABT_SCHED_BASIC, 2, p0));
    for (int i = 1; i < NES; i++) {
        ABT_pool pools[2] = {ABT_POOL_NULL, ABT_POOL_NULL};
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[0]));
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pools[1]));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL,
                                          &es[i]));
        shared[i] = pools[0];
        d[i].priv = pools[1];
    }
    ABT_thread drv[NES];
    for (int i = 0; i < NES; i++) {
        d[i].sum = 0;
        d[i].bad_es = 0;
        d[i].es = es[i];
        CHECK_OK(ABT_thread_create(shared[i], driver, &d[i], ABT_THREAD_ATTR_NULL, &drv[i]));
    }
    for (int i = 0; i < NES; i++)
        CHECK_OK(ABT_thread_free(&drv[i]));
    long n = (long)ROUNDS * BATCH;
    long expect = n * (n - 1) + n; /* sum of 2k+1 for k < n */
    for (int i = 0; i < NES; i++) {
        CHECK_EQ(d[i].sum, expect);
        CHECK_EQ(d[i].bad_es, 0);
    }
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
