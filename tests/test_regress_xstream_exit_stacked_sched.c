/* Regression (audit): ABT_xstream_exit called by a stacked (user-defined)
 * scheduler only asks the ES to stop and returns ABT_SUCCESS, as it does for
 * a main scheduler: the ES stops (join returns), and after a revive the
 * stacked scheduler goes on, runs the unit left in its pool, and ends, so
 * that it can be freed.
 *
 * What used to go wrong: the scheduler's ULT was terminated mid-loop; the
 * scheduler stayed in use for ever (ABT_sched_free: ABT_ERR_SCHED), its pool
 * retained, its unit never ran, and both leaked. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int xexit_ret = -100, units_done;

static void user_run(ABT_sched sched)
{
    ABT_pool q;
    ABT_sched_get_pools(sched, 1, 0, &q);
    atomic_store(&xexit_ret, ABT_xstream_exit()); /* returns? */
    for (;;) {
        ABT_thread t = ABT_THREAD_NULL;
        ABT_pool_pop_thread(q, &t);
        if (t != ABT_THREAD_NULL) {
            ABT_unit u;
            ABT_thread_get_unit(t, &u);
            ABT_xstream_run_unit(u, q);
        }
        ABT_xstream_check_events(sched);
        ABT_bool stop;
        ABT_sched_has_to_stop(sched, &stop);
        if (stop)
            break;
    }
}

static void work(void *a)
{
    (void)a;
    atomic_fetch_add(&units_done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool P, Q;
    ABT_xstream E;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &Q));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &E));
    ABT_sched_def def = {.run = user_run};
    ABT_sched S;
    CHECK_OK(ABT_sched_create(&def, 1, &Q, ABT_SCHED_CONFIG_NULL, &S));
    ABT_thread w;
    CHECK_OK(ABT_thread_create(Q, work, NULL, ABT_THREAD_ATTR_NULL, &w));
    CHECK_OK(ABT_pool_add_sched(P, S));
    CHECK_OK(ABT_xstream_join(E)); /* the ES exits (asked) */
    CHECK_EQ(atomic_load(&xexit_ret), ABT_SUCCESS);
    CHECK_OK(ABT_xstream_revive(E));
    /* if the stacked scheduler survived, it runs w; else S stays "in use" */
    int r = ABT_ERR_SCHED;
    for (int i = 0; i < 2000 && (r = ABT_sched_free(&S)) == ABT_ERR_SCHED; i++)
        usleep(1000);
    CHECK_OK(r);
    CHECK_EQ(atomic_load(&units_done), 1);
    if (r == ABT_SUCCESS) {
        CHECK_OK(ABT_thread_free(&w));
        CHECK_OK(ABT_pool_free(&Q));
    }
    CHECK_OK(ABT_xstream_free(&E));
    CHECK_OK(ABT_pool_free(&P));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
