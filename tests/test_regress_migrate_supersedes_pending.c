/* A move made at once replaces a request still pending, as a later request
 * would (REFERENCE.md, section 9: "A later request replaces a pending one").
 *
 * 1. While a ULT runs, another ULT asks to move it to P2 (a request). The
 *    ULT then migrates itself to P0 and yields: it must continue in P0,
 *    after one callback. An old version associated it with P0 and yielded,
 *    and the requeue served the older request: it continued in P2, with two
 *    callbacks.
 * 2. The same between two remote calls: the first one finds the ULT running
 *    (a request to P2); the ULT yields into its pool before it sees the
 *    request; the second call finds it there and moves it at once to P0. The
 *    old code left the request to P2 pending, which moved the ULT on to P2
 *    when it next ran, and P2 counted it as a unit to come meanwhile. */
#include "bb_test.h"

#include <stdatomic.h>

static atomic_int stage, callbacks;
static ABT_pool P[3];
static ABT_pool after;

static void count_callback(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
    atomic_fetch_add(&callbacks, 1);
}

static void busy_then_self(void *arg)
{
    (void)arg;
    atomic_store(&stage, 1);
    while (atomic_load(&stage) != 2)
        ; /* running without a yield: the other ULT's move becomes a request */
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_OK(ABT_thread_migrate_to_pool(self, P[0]));
    CHECK_OK(ABT_thread_yield()); /* the move happens here */
    CHECK_OK(ABT_self_get_last_pool(&after));
}

static void yielding(void *arg)
{
    (void)arg;
    atomic_store(&stage, 1);
    while (atomic_load(&stage) != 2)
        ABT_thread_yield();
    ABT_thread_yield(); /* after both calls: every move due has happened */
    CHECK_OK(ABT_self_get_last_pool(&after));
}

static ABT_thread start(void (*body)(void *))
{
    atomic_store(&stage, 0);
    atomic_store(&callbacks, 0);
    after = ABT_POOL_NULL;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(P[1], body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, count_callback, NULL));
    while (atomic_load(&stage) < 1)
        ABT_thread_yield();
    return t;
}

static void check_no_count_left(void)
{
    for (int i = 1; i < 3; i++) {
        size_t n;
        CHECK_OK(ABT_pool_get_total_size(P[i], &n));
        CHECK_EQ(n, 0);
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    ABT_xstream es[3];
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_get_main_pools(es[0], 1, &P[0]));
    for (int i = 1; i < 3; i++) {
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &P[i]));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &P[i], ABT_SCHED_CONFIG_NULL,
                                          &es[i]));
    }

    for (int i = 0; i < 20; i++) {
        ABT_thread t = start(busy_then_self);
        CHECK_OK(ABT_thread_migrate_to_pool(t, P[2]));
        atomic_store(&stage, 2);
        CHECK_OK(ABT_thread_free(&t));
        CHECK(after == P[0]);
        CHECK_EQ(atomic_load(&callbacks), 1);
        check_no_count_left();
    }

    /* Each round needs ES 1 and ES 2 to get a CPU a few times: on a loaded
     * machine a round can take tens of ms, so the rounds stop after 15 s. */
    double give_up = ABT_get_wtime() + 15.0;
    for (int i = 0; i < BB_TEST_SIZE(3000, 300) && ABT_get_wtime() < give_up; i++) {
        ABT_thread t = start(yielding);
        CHECK_OK(ABT_thread_migrate_to_pool(t, P[2]));
        CHECK_OK(ABT_thread_migrate_to_pool(t, P[0]));
        atomic_store(&stage, 2);
        CHECK_OK(ABT_thread_free(&t));
        CHECK(after == P[0]);
        check_no_count_left();
        if (bb_test_failures)
            break;
    }

    for (int i = 1; i < 3; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
