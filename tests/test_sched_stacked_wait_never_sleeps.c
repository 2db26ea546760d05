/* A stacked ABT_SCHED_BASIC_WAIT scheduler must not sleep in the kernel: it
 * would put its parent's ES to sleep with it, and work of the parent's own
 * pools (which do not ring the stacked scheduler's bell) would never run.
 *
 * ES 1's main scheduler (BASIC) serves pool P; a BASIC_WAIT scheduler S over
 * pool Q is stacked into P. U (in Q) waits on eventual E1; V (in P) waits on
 * eventual E2, then sets E1. S cannot finish (U counts as blocked in Q), so
 * it idles. The primary ULT waits until both are blocked, lets S idle long
 * enough to fall asleep, and sets E2: V goes back into P, and must run (S
 * yields to its parent while idle), so that U runs and S finishes. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_eventual e1, e2;
static atomic_int u_done, v_done;

static void u_fn(void *arg)
{
    (void)arg;
    ABT_eventual_wait(e1, NULL);
    atomic_store(&u_done, 1);
}

static void v_fn(void *arg)
{
    (void)arg;
    ABT_eventual_wait(e2, NULL);
    ABT_eventual_set(e1, NULL, 0);
    atomic_store(&v_done, 1);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state s = ABT_THREAD_STATE_READY;
    while (s != ABT_THREAD_STATE_BLOCKED && s != ABT_THREAD_STATE_TERMINATED) {
        CHECK_OK(ABT_thread_get_state(t, &s));
        usleep(100);
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    for (int round = 0; round < 3; round++) {
        ABT_pool p, q;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &q));
        ABT_sched s;
        CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC_WAIT, 1, &q, ABT_SCHED_CONFIG_NULL, &s));
        CHECK_OK(ABT_eventual_create(0, &e1));
        CHECK_OK(ABT_eventual_create(0, &e2));
        atomic_store(&u_done, 0);
        atomic_store(&v_done, 0);
        ABT_thread u, v;
        CHECK_OK(ABT_thread_create(q, u_fn, NULL, ABT_THREAD_ATTR_NULL, &u));
        CHECK_OK(ABT_thread_create(p, v_fn, NULL, ABT_THREAD_ATTR_NULL, &v));
        CHECK_OK(ABT_pool_add_sched(p, s));
        ABT_xstream es;
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
        wait_blocked(u);
        wait_blocked(v);
        usleep(50000); /* S idle */
        CHECK_OK(ABT_eventual_set(e2, NULL, 0));
        CHECK_OK(ABT_thread_free(&v));
        CHECK_OK(ABT_thread_free(&u));
        CHECK_EQ(atomic_load(&u_done), 1);
        CHECK_EQ(atomic_load(&v_done), 1);
        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_eventual_free(&e1));
        CHECK_OK(ABT_eventual_free(&e2));
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
