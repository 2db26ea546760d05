/* Regression (audit): ABT_xstream_cancel of an ES while an automatic stacked
 * scheduler runs on it, its automatic pool holding a ready ULT (Y) and a
 * suspended one (X). A cancel leaves units in their pools: after join and
 * revive, X can be resumed and both finish.
 *
 * What used to go wrong: the stacked scheduler inherited the ES's EXIT at
 * its event check, stopped with work left and, being automatic, freed its
 * automatic pool with X and Y in it: resuming X pushed it into freed memory
 * (AddressSanitizer: heap-use-after-free; release build: SIGSEGV). */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int go, x_blocked, y_running, done;

static void xfn(void *arg)
{
    (void)arg;
    atomic_store(&x_blocked, 1);
    ABT_self_suspend();
    atomic_fetch_add(&done, 1);
}

static void yfn(void *arg)
{
    (void)arg;
    atomic_store(&y_running, 1);
    while (!atomic_load(&go))
        ABT_thread_yield();
    atomic_fetch_add(&done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool P, Q;
    ABT_xstream E;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &E));
    ABT_sched S; /* predefined: automatic, with one new automatic pool */
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &S));
    CHECK_OK(ABT_sched_get_pools(S, 1, 0, &Q));
    ABT_thread X, Y;
    CHECK_OK(ABT_thread_create(Q, xfn, NULL, ABT_THREAD_ATTR_NULL, &X));
    CHECK_OK(ABT_thread_create(Q, yfn, NULL, ABT_THREAD_ATTR_NULL, &Y));
    CHECK_OK(ABT_pool_add_sched(P, S));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (!atomic_load(&x_blocked) || !atomic_load(&y_running) || st != ABT_THREAD_STATE_BLOCKED)
        CHECK_OK(ABT_thread_get_state(X, &st));
    usleep(1000);
    CHECK_OK(ABT_xstream_cancel(E));
    CHECK_OK(ABT_xstream_join(E)); /* units left in pools stay there */
    CHECK_OK(ABT_xstream_revive(E));
    atomic_store(&go, 1);
    CHECK_OK(ABT_thread_resume(X));
    CHECK_OK(ABT_thread_free(&X));
    CHECK_OK(ABT_thread_free(&Y));
    CHECK_EQ(atomic_load(&done), 2);
    CHECK_OK(ABT_xstream_free(&E));
    CHECK_OK(ABT_pool_free(&P));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
