/* ABT_sched_config_automatic on a user scheduler (ABT_sched_create, default
 * not automatic): with automatic = 1 the scheduler goes with its ES, so
 * ABT_xstream_free calls the free callback exactly once, and releases the
 * caller's pool (ABT_pool_free of it: ABT_ERR_POOL before, SUCCESS after).
 * With automatic = 0 (explicitly, or by default) the ES free leaves it and
 * ABT_sched_free calls the callback once. */
#include "bb_test.h"
#include <sched.h>
#include <stdatomic.h>

static atomic_int free_calls, done;

static void loop(ABT_sched sched)
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
            continue;
        }
        ABT_xstream_check_events(sched);
        ABT_bool stop = ABT_FALSE;
        ABT_sched_has_to_stop(sched, &stop);
        if (stop)
            break;
        sched_yield();
    }
}

static int count_free(ABT_sched sched)
{
    (void)sched;
    atomic_fetch_add(&free_calls, 1);
    return ABT_SUCCESS;
}

static void work(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    atomic_fetch_add(&done, 1);
}

/* automatic: 1, 0, or -1 for "no config". */
static void one_round(int automatic)
{
    atomic_store(&free_calls, 0);
    atomic_store(&done, 0);
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched_config cfg = ABT_SCHED_CONFIG_NULL;
    if (automatic >= 0)
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, automatic,
                                         ABT_sched_config_var_end));
    ABT_sched_def def = {.run = loop, .free = count_free};
    ABT_sched s;
    CHECK_OK(ABT_sched_create(&def, 1, &pool, cfg, &s));
    if (cfg != ABT_SCHED_CONFIG_NULL)
        CHECK_OK(ABT_sched_config_free(&cfg));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(s, &es));
    for (int i = 0; i < 10; i++)
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
    ABT_pool h = pool;
    CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&done), 10);
    if (automatic == 1) {
        CHECK_EQ(atomic_load(&free_calls), 1);
    } else {
        CHECK_EQ(atomic_load(&free_calls), 0);
        CHECK_ERR(ABT_pool_free(&h), ABT_ERR_POOL); /* the scheduler still holds it */
        CHECK_OK(ABT_sched_free(&s));
        CHECK_EQ(atomic_load(&free_calls), 1);
    }
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_EQ(atomic_load(&free_calls), 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    one_round(1);
    one_round(0);
    one_round(-1);
    /* Any non-zero value means automatic. */
    atomic_store(&free_calls, 0);
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 7,
                                     ABT_sched_config_var_end));
    ABT_sched_def def = {.run = loop, .free = count_free};
    ABT_sched s;
    ABT_pool none = ABT_POOL_NULL; /* a pool is made for it, and goes with it */
    CHECK_OK(ABT_sched_create(&def, 1, &none, cfg, &s));
    CHECK_OK(ABT_sched_config_free(&cfg));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(s, &es));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    atomic_store(&done, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&done), 1);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&free_calls), 1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
