/*
 * ABT_sched_exit on a main scheduler that ABT_xstream_set_main_sched is
 * replacing (it drains its pools before its successor takes over): it stops
 * at its next check, whatever its pools hold, and the successor takes over
 * at once; the caller of set_main_sched returns.
 *
 * Regression: the ES called the retiring scheduler's run() again and again,
 * since its pools were not drained, and each call returned at once. A
 * user-defined loop that asks ABT_sched_has_to_stop before it pops ran
 * nothing, for ever (millions of run() calls): the ES hung, and so did the
 * caller of set_main_sched. Units left in the old scheduler's pool stay
 * there, for another scheduler to run; an automatic scheduler that would
 * take an automatic pool with work along goes back to the user instead of
 * being freed (as a stacked one after ABT_sched_exit).
 */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int stop_b, replaced, b_done, nruns;
static ABT_xstream es;

/* Asks whether to stop before it looks for work. */
static void check_first_run(ABT_sched s)
{
    atomic_fetch_add(&nruns, 1);
    ABT_pool p;
    ABT_sched_get_pools(s, 1, 0, &p);
    for (;;) {
        ABT_bool stop = ABT_FALSE;
        ABT_xstream_check_events(s);
        ABT_sched_has_to_stop(s, &stop);
        if (stop)
            break;
        ABT_thread t = ABT_THREAD_NULL;
        ABT_pool_pop_thread(p, &t);
        if (t != ABT_THREAD_NULL)
            ABT_self_schedule(t, ABT_POOL_NULL);
    }
}

static void replacer(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 0, NULL));
    atomic_store(&replaced, 1);
}

/* Keeps the old scheduler's pool busy until told to stop. */
static void busy(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_b))
        ABT_thread_yield();
    atomic_store(&b_done, 1);
}

static int wait_for(atomic_int *v)
{
    for (int i = 0; i < 3000 && !atomic_load(v); i++)
        usleep(1000);
    return atomic_load(v);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = check_first_run};
    ABT_sched old;
    CHECK_OK(ABT_sched_create(&def, 1, &p, ABT_SCHED_CONFIG_NULL, &old));
    CHECK_OK(ABT_xstream_create(old, &es));
    ABT_thread b, a;
    CHECK_OK(ABT_thread_create(p, busy, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_create(p, replacer, NULL, ABT_THREAD_ATTR_NULL, &a));
    usleep(50 * 1000); /* the replacer is parked; `busy` keeps `old` from draining */
    CHECK_EQ(atomic_load(&replaced), 0);

    CHECK_OK(ABT_sched_exit(old));
    CHECK(wait_for(&replaced)); /* the successor took over */
    ABT_xstream_state st;
    CHECK_OK(ABT_xstream_get_state(es, &st));
    CHECK_EQ(st, ABT_XSTREAM_STATE_RUNNING);
    ABT_sched now;
    CHECK_OK(ABT_xstream_get_main_sched(es, &now));
    CHECK(now != old);
    CHECK_EQ(atomic_load(&nruns), 1); /* not called again and again */
    CHECK_EQ(atomic_load(&b_done), 0); /* left in `p`, which nobody serves now */

    /* Another ES runs what the old scheduler left. */
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es2));
    atomic_store(&stop_b, 1);
    CHECK(wait_for(&b_done));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_xstream_free(&es2));

    /* An automatic scheduler, with an automatic pool: the ES's default. */
    CHECK_OK(ABT_xstream_free(&es));
    atomic_store(&stop_b, 0);
    atomic_store(&b_done, 0);
    atomic_store(&replaced, 0);
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_sched old2;
    ABT_pool p2;
    CHECK_OK(ABT_xstream_get_main_sched(es, &old2));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &p2));
    CHECK_OK(ABT_thread_create(p2, busy, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_create(p2, replacer, NULL, ABT_THREAD_ATTR_NULL, &a));
    usleep(50 * 1000);
    CHECK_OK(ABT_sched_exit(old2));
    CHECK(wait_for(&replaced));
    CHECK_EQ(ABT_sched_free(&old2), ABT_ERR_SCHED); /* its pool still holds `busy` */
    ABT_pool np;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &np));
    CHECK_OK(ABT_pool_add_sched(np, old2)); /* run the rest, stacked */
    atomic_store(&stop_b, 1);
    CHECK(wait_for(&b_done));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_thread_free(&a));
    int ret;
    for (int i = 0; i < 3000 && (ret = ABT_sched_free(&old2)) == ABT_ERR_SCHED; i++)
        usleep(1000); /* until the stacked loop has ended */
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&old)); /* not automatic: the user's */
    CHECK_OK(ABT_pool_free(&p));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
