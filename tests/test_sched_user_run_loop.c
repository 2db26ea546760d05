/* A user scheduler (ABT_sched_create) as the main scheduler of a secondary
 * ES, with a run loop written here: ABT_sched_get_data / get_num_pools /
 * get_pools, ABT_pool_pop_thread, ABT_thread_get_unit, ABT_xstream_run_unit,
 * ABT_xstream_check_events and ABT_sched_has_to_stop. Every unit of both
 * pools runs on that ES, associated with its pool; the join stops the loop.
 * While the scheduler is in use: ABT_sched_free -> ABT_ERR_SCHED (also after
 * the ES terminated, until it is freed), a second ES or ABT_pool_add_sched
 * with it -> ABT_ERR_INV_SCHED. Not automatic: ABT_xstream_free leaves it
 * (no free callback); it can drive a new ES; ABT_sched_free then calls the
 * free callback once. check_events from a unit that is not the scheduler ->
 * INV_THREAD, from an external thread -> INV_XSTREAM. */
#include "bb_test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#define NPOOLS 2
#define N 40

typedef struct {
    atomic_int runs;   /* calls of run() */
    atomic_int errors; /* failed calls inside run() */
    atomic_int units;  /* units run by the loop */
} sched_state;

static sched_state state;
static atomic_int free_calls;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&state.errors, 1);
}

static void my_run(ABT_sched sched)
{
    void *data = NULL;
    note(ABT_sched_get_data(sched, &data));
    sched_state *st = data;
    if (st != &state) {
        atomic_fetch_add(&state.errors, 1000);
        return;
    }
    atomic_fetch_add(&st->runs, 1);
    int n = 0;
    note(ABT_sched_get_num_pools(sched, &n));
    if (n != NPOOLS) {
        atomic_fetch_add(&st->errors, 1000);
        return;
    }
    ABT_pool pools[NPOOLS];
    note(ABT_sched_get_pools(sched, n, 0, pools));
    for (unsigned iter = 1;; iter++) {
        int ran = 0;
        for (int i = 0; i < n && !ran; i++) {
            ABT_thread t = ABT_THREAD_NULL;
            note(ABT_pool_pop_thread(pools[i], &t));
            if (t != ABT_THREAD_NULL) {
                ABT_unit u = ABT_UNIT_NULL;
                note(ABT_thread_get_unit(t, &u));
                note(ABT_xstream_run_unit(u, pools[i]));
                atomic_fetch_add(&st->units, 1);
                ran = 1;
            }
        }
        if (!ran || iter % 8 == 0) {
            note(ABT_xstream_check_events(sched));
            ABT_bool stop = ABT_FALSE;
            note(ABT_sched_has_to_stop(sched, &stop));
            if (stop)
                break;
            if (!ran)
                sched_yield();
        }
    }
}

static int my_free(ABT_sched sched)
{
    (void)sched;
    atomic_fetch_add(&free_calls, 1);
    return ABT_SUCCESS;
}

static ABT_sched the_sched;
static ABT_xstream ran_xs[N];
static ABT_pool ran_pool[N];
static int unit_check_ret[N], unit_stop_ret[N];
static ABT_bool unit_stop[N];

static void work(void *arg)
{
    long i = (long)arg;
    ABT_thread_yield();
    ABT_self_get_xstream(&ran_xs[i]);
    ABT_self_get_last_pool(&ran_pool[i]);
    unit_check_ret[i] = ABT_xstream_check_events(the_sched);
    unit_stop_ret[i] = ABT_sched_has_to_stop(the_sched, &unit_stop[i]);
    ABT_thread_yield();
}

static int ext_ret = -1;
static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_xstream_check_events(the_sched);
    return NULL;
}

static void run_batch(ABT_xstream es, ABT_pool *pools)
{
    ABT_thread t[N];
    for (long i = 0; i < N; i++) {
        ran_xs[i] = ABT_XSTREAM_NULL;
        CHECK_OK(ABT_thread_create(pools[i % NPOOLS], work, (void *)i, ABT_THREAD_ATTR_NULL,
                                   &t[i]));
    }
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    for (int i = 0; i < N; i++) {
        CHECK(ran_xs[i] == es);
        CHECK(ran_pool[i] == pools[i % NPOOLS]);
        CHECK_EQ(unit_check_ret[i], ABT_ERR_INV_THREAD);
        CHECK_EQ(unit_stop_ret[i], ABT_SUCCESS);
        CHECK_EQ(unit_stop[i], ABT_FALSE);
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pools[NPOOLS], other;
    for (int i = 0; i < NPOOLS; i++)
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE,
                                       &pools[i]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &other));

    ABT_sched_def def = {.run = my_run, .free = my_free};
    CHECK_OK(ABT_sched_create(&def, NPOOLS, pools, ABT_SCHED_CONFIG_NULL, &the_sched));
    CHECK_OK(ABT_sched_set_data(the_sched, &state));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(the_sched, &es));
    ABT_sched got;
    CHECK_OK(ABT_xstream_get_main_sched(es, &got));
    CHECK(got == the_sched);
    ABT_pool main_pools[NPOOLS];
    CHECK_OK(ABT_xstream_get_main_pools(es, NPOOLS, main_pools));
    CHECK(main_pools[0] == pools[0] && main_pools[1] == pools[1]);

    /* In use. */
    ABT_sched h = the_sched;
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED);
    CHECK(h == the_sched);
    ABT_xstream es2 = (ABT_xstream)(void *)0x1;
    CHECK_ERR(ABT_xstream_create(the_sched, &es2), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_pool_add_sched(other, the_sched), ABT_ERR_INV_SCHED);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_total_size(other, &size));
    CHECK_EQ(size, 0);

    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, ext_fn, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_ERR_INV_XSTREAM);

    run_batch(es, pools);
    CHECK_OK(ABT_xstream_join(es));
    ABT_xstream_state xs_state;
    CHECK_OK(ABT_xstream_get_state(es, &xs_state));
    CHECK_EQ(xs_state, ABT_XSTREAM_STATE_TERMINATED);
    CHECK_EQ(atomic_load(&state.errors), 0);
    CHECK_EQ(atomic_load(&state.runs), 1);
    CHECK(atomic_load(&state.units) >= N);
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED); /* still the ES's until it is freed */
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&free_calls), 0);

    /* Not automatic: it survives and drives another ES. */
    CHECK_OK(ABT_xstream_create(the_sched, &es));
    run_batch(es, pools);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&state.errors), 0);
    CHECK_EQ(atomic_load(&state.runs), 2);
    CHECK_EQ(atomic_load(&free_calls), 0);

    CHECK_OK(ABT_sched_free(&the_sched));
    CHECK(the_sched == ABT_SCHED_NULL);
    CHECK_EQ(atomic_load(&free_calls), 1);
    for (int i = 0; i < NPOOLS; i++)
        CHECK_OK(ABT_pool_free(&pools[i]));
    CHECK_OK(ABT_pool_free(&other));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
