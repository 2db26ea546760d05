/* ABT_thread_get_attr describes the ULT's migratability and migration
 * callback too (REFERENCE, section 3: "its stack address and size,
 * migratability, migration callback"): a ULT created from the returned
 * attribute (its stack address cleared) is not migratable if the first one
 * was not, and gets the first one's callback and argument. Mutation testing
 * (thread.c, ABT_thread_get_attr) found nothing checking either. */
#include "bb_test.h"

static int cb_calls;
static ABT_thread cb_thread;
static void *cb_arg_seen;

static void cb(ABT_thread t, void *arg)
{
    __atomic_fetch_add(&cb_calls, 1, __ATOMIC_SEQ_CST);
    cb_thread = t;
    cb_arg_seen = arg;
}

static void noop(void *arg)
{
    (void)arg;
}

/* The attribute of `t`, with its stack address cleared (a ULT made from it
 * gets a stack of its own). */
static ABT_thread_attr attr_of(ABT_thread t)
{
    ABT_thread_attr a = ABT_THREAD_ATTR_NULL;
    CHECK_OK(ABT_thread_get_attr(t, &a));
    void *addr;
    size_t size;
    CHECK_OK(ABT_thread_attr_get_stack(a, &addr, &size));
    CHECK_OK(ABT_thread_attr_set_stack(a, NULL, size));
    return a;
}

/* Everything waiting in `from` goes to the caller's main pool, to run. */
static void drain(ABT_pool from)
{
    ABT_thread t;
    while (ABT_pool_pop_thread(from, &t) == ABT_SUCCESS && t != ABT_THREAD_NULL)
        CHECK_OK(ABT_pool_push_thread(bb_test_main_pool(), t));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool idle, idle2; /* no scheduler serves them */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle2));
    static int x;

    /* Not migratable. */
    ABT_thread_attr a;
    CHECK_OK(ABT_thread_attr_create(&a));
    CHECK_OK(ABT_thread_attr_set_migratable(a, ABT_FALSE));
    ABT_thread t1, t2;
    CHECK_OK(ABT_thread_create(idle, noop, NULL, a, &t1));
    CHECK_OK(ABT_thread_attr_free(&a));
    ABT_thread_attr a1 = attr_of(t1);
    CHECK_OK(ABT_thread_create(idle, noop, NULL, a1, &t2));
    CHECK_OK(ABT_thread_attr_free(&a1));
    ABT_bool m = ABT_TRUE;
    CHECK_OK(ABT_thread_is_migratable(t2, &m));
    CHECK_EQ(m, ABT_FALSE);

    /* With a migration callback. */
    ABT_thread_attr b;
    CHECK_OK(ABT_thread_attr_create(&b));
    CHECK_OK(ABT_thread_attr_set_callback(b, cb, &x));
    ABT_thread t3, t4;
    CHECK_OK(ABT_thread_create(idle, noop, NULL, b, &t3));
    CHECK_OK(ABT_thread_attr_free(&b));
    ABT_thread_attr b1 = attr_of(t3);
    CHECK_OK(ABT_thread_create(idle, noop, NULL, b1, &t4));
    CHECK_OK(ABT_thread_attr_free(&b1));
    CHECK_OK(ABT_thread_is_migratable(t4, &m));
    CHECK_EQ(m, ABT_TRUE);
    CHECK_OK(ABT_thread_migrate_to_pool(t4, idle2));
    CHECK_EQ(cb_calls, 1);
    CHECK(cb_thread == t4);
    CHECK(cb_arg_seen == &x);

    drain(idle);
    drain(idle2);
    CHECK_OK(ABT_thread_free(&t1));
    CHECK_OK(ABT_thread_free(&t2));
    CHECK_OK(ABT_thread_free(&t3));
    CHECK_OK(ABT_thread_free(&t4));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_pool_free(&idle2));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
