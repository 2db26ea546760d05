/* A creator cancelled while its child-first child runs must not be mistaken
 * for the new ULT that reuses its descriptor (found by a stress audit).
 * C (on ES 1) calls ABT_thread_create_to(P, X); X cancels C and spins; ES 2
 * pops C from P, where X's start put it, and ends it for the cancel; ES 2's
 * ULT F joins and frees C and creates N, which gets C's freed descriptor
 * from ES 2's cache and waits in P. When X ends, it takes its creator back
 * if that creator still waits in the pool for it. C's "waits for X" mark
 * used to survive the cancel, so X took N for C: under the techniques where
 * a ULT returns to its parent (roc, ss, sc, auto) C's code after
 * create_to ran again in N's place, and N's body never ran, or the process
 * crashed. Checks, per round, that C never gets past create_to and that N
 * runs once. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_pool q1, q2, p;
static ABT_thread C, N;
static atomic_int cancelled, n_created, x_done, c_after, n_ran, reused;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Busy (no deviation) until `flag` is set, 2 s at most. */
static void spin_until(atomic_int *flag)
{
    double end = now() + 2.0;
    while (!atomic_load(flag) && now() < end) {
    }
}

static void n_body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&n_ran, 1);
}

static void x_body(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_cancel(C));
    atomic_store(&cancelled, 1);
    spin_until(&n_created);
    atomic_store(&x_done, 1);
}

static void c_body(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_self_set_associated_pool(p));
    CHECK_OK(ABT_thread_create_to(p, x_body, NULL, ABT_THREAD_ATTR_NULL, NULL));
    atomic_store(&c_after, 1); /* a cancelled creator never gets here */
}

static void f_body(void *arg)
{
    (void)arg;
    spin_until(&cancelled);
    CHECK_OK(ABT_thread_join(C)); /* ES 2 pops C from P and ends it */
    void *old = (void *)C;
    CHECK_OK(ABT_thread_free(&C));
    CHECK_OK(ABT_thread_create(p, n_body, NULL, ABT_THREAD_ATTR_NULL, &N));
    atomic_fetch_add(&reused, (void *)N == old);
    atomic_store(&n_created, 1);
    spin_until(&x_done); /* ES 2 stays busy: N waits in P while X ends */
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &q1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &q2));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &p));
    ABT_pool pools1[2] = {q1, p}, pools2[2] = {q2, p};
    ABT_xstream es1, es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools1, ABT_SCHED_CONFIG_NULL, &es1));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools2, ABT_SCHED_CONFIG_NULL, &es2));
    int rounds = BB_TEST_SIZE(100, 20), bad = 0;
    for (int r = 0; r < rounds; r++) {
        atomic_store(&cancelled, 0);
        atomic_store(&n_created, 0);
        atomic_store(&x_done, 0);
        atomic_store(&c_after, 0);
        atomic_store(&n_ran, 0);
        ABT_thread f;
        CHECK_OK(ABT_thread_create(q2, f_body, NULL, ABT_THREAD_ATTR_NULL, &f));
        CHECK_OK(ABT_thread_create(q1, c_body, NULL, ABT_THREAD_ATTR_NULL, &C));
        CHECK_OK(ABT_thread_free(&f));
        CHECK_OK(ABT_thread_free(&N));
        bad += atomic_load(&c_after) || atomic_load(&n_ran) != 1;
    }
    CHECK_EQ(bad, 0);
    printf("%d rounds, descriptor reused in %d\n", rounds, atomic_load(&reused));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
