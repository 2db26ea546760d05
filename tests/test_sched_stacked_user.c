/* A user scheduler (ABT_sched_create, run loop written here with
 * ABT_xstream_check_events and ABT_sched_has_to_stop) stacked with
 * ABT_pool_add_sched into a secondary ES's main pool: it runs all units of
 * its pool on that ES, then has_to_stop turns TRUE by itself (no request)
 * and run() returns. Automatic (ABT_sched_config_automatic = 1): the free
 * callback then runs exactly once, without any ABT_sched_free. Not automatic
 * (the default): no free callback at the stop; it can be added again (with
 * new work, which it runs), and ABT_sched_free calls the callback once. */
#include "bb_test.h"
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define N 20

static atomic_int done, stops, free_calls, errors;
static ABT_pool ran_pool[2 * N];
static ABT_xstream ran_xs[2 * N];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int wait_for(atomic_int *v, int value)
{
    double end = now() + 3.0;
    while (atomic_load(v) < value && now() < end)
        usleep(500);
    return atomic_load(v) == value;
}

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void stacked_run(ABT_sched sched)
{
    ABT_pool pool = ABT_POOL_NULL;
    note(ABT_sched_get_pools(sched, 1, 0, &pool));
    for (unsigned iter = 1;; iter++) {
        ABT_thread t = ABT_THREAD_NULL;
        note(ABT_pool_pop_thread(pool, &t));
        if (t != ABT_THREAD_NULL) {
            ABT_unit u;
            note(ABT_thread_get_unit(t, &u));
            note(ABT_xstream_run_unit(u, pool));
        }
        if (t == ABT_THREAD_NULL || iter % 4 == 0) {
            note(ABT_xstream_check_events(sched));
            ABT_bool stop = ABT_FALSE;
            note(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
        }
    }
    atomic_fetch_add(&stops, 1);
}

static int count_free(ABT_sched sched)
{
    (void)sched;
    atomic_fetch_add(&free_calls, 1);
    return ABT_SUCCESS;
}

static void work(void *arg)
{
    long i = (long)arg;
    for (int k = 0; k < 3; k++)
        ABT_thread_yield();
    ABT_self_get_xstream(&ran_xs[i]);
    ABT_self_get_last_pool(&ran_pool[i]);
    atomic_fetch_add(&done, 1);
}

static void reset(void)
{
    atomic_store(&done, 0);
    atomic_store(&stops, 0);
    atomic_store(&free_calls, 0);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool mp;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &mp));
    ABT_sched_def def = {.run = stacked_run, .free = count_free};

    /* Automatic. */
    reset();
    ABT_pool q;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    ABT_sched_config cfg;
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_automatic, 1,
                                     ABT_sched_config_var_end));
    ABT_sched s;
    CHECK_OK(ABT_sched_create(&def, 1, &q, cfg, &s));
    CHECK_OK(ABT_sched_config_free(&cfg));
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(q, work, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_pool_add_sched(mp, s));
    CHECK(wait_for(&done, N));
    CHECK(wait_for(&stops, 1));
    CHECK(wait_for(&free_calls, 1));
    usleep(20 * 1000);
    CHECK_EQ(atomic_load(&stops), 1);
    CHECK_EQ(atomic_load(&free_calls), 1);
    for (int i = 0; i < N; i++) {
        CHECK(ran_xs[i] == es);
        CHECK(ran_pool[i] == q);
    }
    CHECK_OK(ABT_pool_free(&q)); /* released by the freed scheduler */

    /* Not automatic. */
    reset();
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &q));
    CHECK_OK(ABT_sched_create(&def, 1, &q, ABT_SCHED_CONFIG_NULL, &s));
    for (long i = 0; i < N; i++)
        CHECK_OK(ABT_thread_create(q, work, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_pool_add_sched(mp, s));
    CHECK(wait_for(&done, N));
    CHECK(wait_for(&stops, 1));
    usleep(20 * 1000);
    CHECK_EQ(atomic_load(&free_calls), 0);
    /* Add it again, with new work. */
    for (long i = N; i < 2 * N; i++)
        CHECK_OK(ABT_thread_create(q, work, (void *)i, ABT_THREAD_ATTR_NULL, NULL));
    int ret;
    double end = now() + 3.0;
    while ((ret = ABT_pool_add_sched(mp, s)) == ABT_ERR_INV_SCHED && now() < end)
        usleep(200); /* run() returned; the detach may lag a little */
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK(wait_for(&done, 2 * N));
    CHECK(wait_for(&stops, 2));
    CHECK_EQ(atomic_load(&free_calls), 0);
    for (int i = 0; i < 2 * N; i++) {
        CHECK(ran_xs[i] == es);
        CHECK(ran_pool[i] == q);
    }
    ABT_sched h = s;
    end = now() + 3.0;
    while ((ret = ABT_sched_free(&h)) == ABT_ERR_SCHED && now() < end)
        usleep(200);
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK_EQ(atomic_load(&free_calls), 1);
    CHECK_OK(ABT_pool_free(&q));

    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
