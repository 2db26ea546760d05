/* ABT_sched_exit of an automatic stacked scheduler whose automatic pool
 * still holds work (a ready ULT Y, a suspended ULT X): the scheduler stops,
 * but is not freed with that pool; it goes back to the user as if it were
 * not automatic. Added to a pool again, it runs X and Y to their end, then
 * ends by itself with its pool drained; the user frees it then, as one that
 * is not automatic. (It used to stay automatic and free itself there, so a
 * user who took it at its word freed it twice.)
 *
 * Before: the stopped scheduler was freed with its pool, X and Y in it; the
 * resume of X pushed into freed memory (AddressSanitizer), and adding the
 * scheduler again used a freed handle. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int go, x_blocked, y_running, done;

static void x_body(void *arg)
{
    (void)arg;
    atomic_store(&x_blocked, 1);
    CHECK_OK(ABT_self_suspend());
    atomic_fetch_add(&done, 1);
}

static void y_body(void *arg)
{
    (void)arg;
    atomic_store(&y_running, 1);
    while (!atomic_load(&go))
        CHECK_OK(ABT_thread_yield());
    atomic_fetch_add(&done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool P;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &P));
    ABT_xstream E;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &E));
    ABT_sched S; /* predefined: automatic, over a new automatic pool Q */
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &S));
    ABT_pool Q;
    CHECK_OK(ABT_sched_get_pools(S, 1, 0, &Q));
    ABT_thread X, Y;
    CHECK_OK(ABT_thread_create(Q, x_body, NULL, ABT_THREAD_ATTR_NULL, &X));
    CHECK_OK(ABT_thread_create(Q, y_body, NULL, ABT_THREAD_ATTR_NULL, &Y));
    CHECK_OK(ABT_pool_add_sched(P, S));
    ABT_thread_state state = ABT_THREAD_STATE_READY;
    while (!atomic_load(&x_blocked) || !atomic_load(&y_running) ||
           state != ABT_THREAD_STATE_BLOCKED)
        CHECK_OK(ABT_thread_get_state(X, &state));

    CHECK_OK(ABT_sched_exit(S));
    /* Once stopped, S is the user's again: it can be added anew. */
    int err;
    while ((err = ABT_pool_add_sched(P, S)) == ABT_ERR_INV_SCHED)
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(err);

    atomic_store(&go, 1);
    CHECK_OK(ABT_thread_resume(X));
    CHECK_OK(ABT_thread_free(&X));
    CHECK_OK(ABT_thread_free(&Y));
    CHECK_EQ(atomic_load(&done), 2);
    CHECK_OK(ABT_xstream_free(&E)); /* S ended with Q drained */
    CHECK_OK(ABT_sched_free(&S));   /* the user's: Q goes with it */
    CHECK_OK(ABT_pool_free(&P));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
