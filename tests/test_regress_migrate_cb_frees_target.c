/* The migration callback runs after the unit is associated with its target
 * pool and before it is pushed (docs/REFERENCE.md, section 9), and
 * ABT_pool_free refuses a pool that a move is bound for. A move made at
 * once (the unit waited in a pool the caller may take it out of) did not
 * count the target while the callback ran: a callback that freed the
 * target pool succeeded, and the push then wrote into freed memory.
 *
 * For target pools of each built-in kind, shared and private (no scheduler
 * holds them): a ULT waiting in the primary ES's pool is moved there; its
 * callback's ABT_pool_free of the target must return ABT_ERR_POOL; the ULT
 * is then in the target, and runs once brought back. */
#include "bb_test.h"

static ABT_pool target;
static int free_ret, calls;

static void callback(ABT_thread thread, void *arg)
{
    (void)thread;
    (void)arg;
    ABT_pool copy = target;
    free_ret = ABT_pool_free(&copy);
    calls++;
}

static void body(void *arg)
{
    *(int *)arg = 1;
}

static void move_with(ABT_pool_kind kind, ABT_pool_access access)
{
    CHECK_OK(ABT_pool_create_basic(kind, access, ABT_FALSE, &target));
    int ran = 0;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(bb_test_main_pool(), body, &ran, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, callback, NULL));
    free_ret = -1;
    calls = 0;
    CHECK_OK(ABT_thread_migrate_to_pool(t, target));
    CHECK_EQ(calls, 1);
    CHECK_EQ(free_ret, ABT_ERR_POOL);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(target, &size));
    CHECK_EQ(size, 1);
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(target, &popped));
    CHECK_EQ(popped, t);
    CHECK_OK(ABT_pool_push_thread(bb_test_main_pool(), popped));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 1);
    CHECK_OK(ABT_pool_free(&target));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    move_with(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC);
    move_with(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV);
    move_with(ABT_POOL_RANDWS, ABT_POOL_ACCESS_MPMC);
    move_with(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
