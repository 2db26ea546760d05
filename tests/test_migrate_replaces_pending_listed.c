/* A move made at once replaces a request still pending (REFERENCE, section
 * 9: "A later request replaces a pending one"), reached deterministically:
 * the direct yield of a ULT of a private FIFO (hotpath.c, yield_from) puts
 * the ULT back into its pool without serving a request it has (whatever
 * takes it out serves it), so the ULT waits in its pool with a request
 * pending. A call that then takes it out of the pool at once must replace
 * that request (migrate.c, bb_unit_migrate: has_pending_request); else the
 * ULT moves on to the older target when it next runs.
 *
 * On ES1, whose only pool P is a private FIFO:
 *  1. X runs; an external thread asks to move it to P2 (X is running: a
 *     request).
 *  2. X yields straight to Y, which waits in P.
 *  3. Y moves X to P3. X must stay in P3 (it finishes there) and P2 must
 *     count nothing.
 * test_regress_migrate_supersedes_pending needs a race to reach this, and
 * mutation testing found it did not kill the mutant that drops the
 * replacement. With the shortcuts off (or whenever the yield goes through
 * the scheduler) step 2 serves the request (X goes to P2 first); the
 * outcome checked is the same. */
#include "bb_test.h"

#include <pthread.h>
#include <stdatomic.h>

static atomic_int stage;
static ABT_thread X;
static ABT_pool P2, P3;
static ABT_pool x_after;
static int remote_err, y_err;
static size_t n2, n3;

static void x_body(void *arg)
{
    (void)arg;
    atomic_store(&stage, 1);
    while (atomic_load(&stage) != 2)
        ; /* running, without a yield: the remote move becomes a request */
    ABT_thread_yield();
    CHECK_OK(ABT_self_get_last_pool(&x_after));
}

static void y_body(void *arg)
{
    (void)arg;
    while (atomic_load(&stage) != 2)
        ABT_thread_yield(); /* X runs, and holds the ES until its own yield */
    y_err = ABT_thread_migrate_to_pool(X, P3);
    CHECK_OK(ABT_pool_get_total_size(P2, &n2));
    CHECK_OK(ABT_pool_get_total_size(P3, &n3));
}

static void *remote(void *arg)
{
    (void)arg;
    while (atomic_load(&stage) != 1)
        sched_yield();
    remote_err = ABT_thread_migrate_to_pool(X, P2);
    atomic_store(&stage, 2);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P2));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P3));
    for (int round = 0; round < 10; round++) {
        atomic_store(&stage, 0);
        x_after = ABT_POOL_NULL;
        remote_err = y_err = -1;
        n2 = n3 = 99;
        ABT_pool P; /* homeless until ES1 starts: we may create into it */
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &P));
        ABT_thread Y;
        CHECK_OK(ABT_thread_create(P, y_body, NULL, ABT_THREAD_ATTR_NULL, &Y));
        CHECK_OK(ABT_thread_create(P, x_body, NULL, ABT_THREAD_ATTR_NULL, &X));
        pthread_t th;
        CHECK_EQ(pthread_create(&th, NULL, remote, NULL), 0);
        ABT_xstream es1;
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es1));
        CHECK_OK(ABT_thread_free(&Y));
        CHECK_EQ(pthread_join(th, NULL), 0);
        CHECK_OK(remote_err);
        CHECK_OK(y_err);
        CHECK_EQ(n2, 0);
        CHECK_EQ(n3, 1);
        /* The rest of X, from P3; then from P2 if a stale request sent it
         * on there (what must not happen). */
        for (int i = 0; i < 3; i++) {
            ABT_thread t = ABT_THREAD_NULL;
            CHECK_OK(ABT_pool_pop_thread(i == 0 ? P3 : P2, &t));
            if (t != ABT_THREAD_NULL)
                CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
        }
        CHECK_OK(ABT_thread_free(&X));
        CHECK(x_after == P3);
        CHECK_OK(ABT_xstream_free(&es1));
        if (bb_test_failures)
            break;
    }
    CHECK_OK(ABT_pool_free(&P2));
    CHECK_OK(ABT_pool_free(&P3));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
