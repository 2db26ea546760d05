/* ABT_xstream_free (and ABT_xstream_join) of an ES whose main pool holds
 * stacked schedulers that still have work: the call completes only after
 * all that work ran (units that yield many times), and the automatic stacked
 * schedulers are gone by then (their free callback ran once; their pools are
 * released and can be freed at once). Stacked schedulers added from a ULT
 * running on that ES work the same. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 25

static atomic_int done, free_calls;

static void work(void *arg)
{
    (void)arg;
    for (int k = 0; k < 20; k++)
        ABT_thread_yield();
    atomic_fetch_add(&done, 1);
}

static void user_run(ABT_sched sched)
{
    ABT_pool pool;
    ABT_sched_get_pools(sched, 1, 0, &pool);
    for (;;) {
        ABT_thread t = ABT_THREAD_NULL;
        ABT_pool_pop_thread(pool, &t);
        if (t != ABT_THREAD_NULL) {
            ABT_unit u;
            ABT_thread_get_unit(t, &u);
            ABT_xstream_run_unit(u, pool);
        }
        ABT_xstream_check_events(sched);
        ABT_bool stop = ABT_FALSE;
        ABT_sched_has_to_stop(sched, &stop);
        if (stop)
            break;
    }
}

static int count_free(ABT_sched sched)
{
    (void)sched;
    atomic_fetch_add(&free_calls, 1);
    return ABT_SUCCESS;
}

static ABT_pool q_inner;
static ABT_pool es_main_pool;
static int inner_add_ret = -1;

/* Runs on the ES: stacks one more scheduler there, with work. */
static void adder(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++)
        ABT_thread_create(q_inner, work, NULL, ABT_THREAD_ATTR_NULL, NULL);
    ABT_sched s;
    if (ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &q_inner, ABT_SCHED_CONFIG_NULL, &s) ==
        ABT_SUCCESS)
        inner_add_ret = ABT_pool_add_sched(es_main_pool, s);
}

static void one_round(int use_join)
{
    atomic_store(&done, 0);
    atomic_store(&free_calls, 0);
    inner_add_ret = -1;
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &es_main_pool));

    ABT_pool qb, qu;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &qb));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &qu));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q_inner));
    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(qb, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
        CHECK_OK(ABT_thread_create(qu, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    }
    ABT_sched sb, su;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &qb, ABT_SCHED_CONFIG_NULL, &sb));
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 1,
                                     ABT_sched_config_var_end));
    ABT_sched_def def = {.run = user_run, .free = count_free};
    CHECK_OK(ABT_sched_create(&def, 1, &qu, cfg, &su));
    CHECK_OK(ABT_sched_config_free(&cfg));

    CHECK_OK(ABT_pool_add_sched(es_main_pool, sb));
    CHECK_OK(ABT_thread_create(es_main_pool, adder, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_pool_add_sched(es_main_pool, su));
    if (use_join)
        CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));

    CHECK_EQ(inner_add_ret, ABT_SUCCESS);
    CHECK_EQ(atomic_load(&done), 3 * N);
    CHECK_EQ(atomic_load(&free_calls), 1);
    CHECK_OK(ABT_pool_free(&qb));
    CHECK_OK(ABT_pool_free(&qu));
    CHECK_OK(ABT_pool_free(&q_inner));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    one_round(0);
    one_round(1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
