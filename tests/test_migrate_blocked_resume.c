/* A BLOCKED ULT (ABT_self_suspend) asked to migrate: nothing happens while it
 * is blocked (no callback, its pool unchanged); ABT_thread_resume then puts
 * it into the target, where it continues, and the callback has run once.
 *  - blocked on ES 0, migrated to ES 1 with ABT_thread_migrate_to_xstream:
 *    it continues on ES 1;
 *  - blocked on ES 1, migrated to a pool nobody serves: after the resume it
 *    waits there (READY) without running; a second migration of that READY
 *    unit to the primary ES's pool lets it continue on ES 0. */
#include "bb_test.h"
#include <stdatomic.h>

struct record {
    atomic_int calls;
    ABT_pool pool_in_cb;
};

static void cb(ABT_thread thread, void *arg)
{
    struct record *r = arg;
    ABT_thread_get_last_pool(thread, &r->pool_in_cb);
    atomic_fetch_add(&r->calls, 1);
}

struct sleeper {
    int before, after;
    ABT_pool pool_after;
    atomic_int resumed;
};

static void sleeper(void *arg)
{
    struct sleeper *s = arg;
    ABT_self_get_xstream_rank(&s->before);
    ABT_self_suspend();
    atomic_store(&s->resumed, 1);
    ABT_self_get_xstream_rank(&s->after);
    ABT_self_get_last_pool(&s->pool_after);
}

static ABT_thread_state state_of(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_TERMINATED;
    CHECK_OK(ABT_thread_get_state(t, &st));
    return st;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es1;
    ABT_pool main_pool, pool1, idle;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    /* Blocked on ES 0, to ES 1. */
    static struct sleeper s0;
    static struct record r0;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool, sleeper, &s0, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, cb, &r0));
    while (state_of(t) != ABT_THREAD_STATE_BLOCKED)
        ABT_thread_yield();
    CHECK_OK(ABT_thread_migrate_to_xstream(t, es1));
    for (int i = 0; i < 5; i++)
        ABT_thread_yield();
    usleep(10000);
    CHECK_EQ(atomic_load(&r0.calls), 0);
    CHECK_EQ(state_of(t), ABT_THREAD_STATE_BLOCKED);
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &last));
    CHECK(last == main_pool);
    CHECK_OK(ABT_thread_resume(t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(s0.before, 0);
    CHECK_EQ(s0.after, 1);
    CHECK(s0.pool_after == pool1);
    CHECK_EQ(atomic_load(&r0.calls), 1);
    CHECK(r0.pool_in_cb == pool1);

    /* Blocked on ES 1, to a pool nobody serves, then to ES 0's pool. */
    static struct sleeper s1;
    static struct record r1;
    CHECK_OK(ABT_thread_create(pool1, sleeper, &s1, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, cb, &r1));
    while (state_of(t) != ABT_THREAD_STATE_BLOCKED)
        usleep(100);
    CHECK_OK(ABT_thread_migrate_to_pool(t, idle));
    usleep(10000);
    CHECK_EQ(atomic_load(&r1.calls), 0);
    CHECK_OK(ABT_thread_resume(t));
    size_t size = 0;
    for (int i = 0; i < 5000 && size == 0; i++) {
        CHECK_OK(ABT_pool_get_size(idle, &size));
        if (size == 0)
            usleep(1000);
    }
    CHECK_EQ(size, 1);
    CHECK_EQ(atomic_load(&r1.calls), 1);
    CHECK(r1.pool_in_cb == idle);
    CHECK_EQ(state_of(t), ABT_THREAD_STATE_READY);
    usleep(10000);
    CHECK_EQ(atomic_load(&s1.resumed), 0); /* waits in the unserved pool */
    CHECK_OK(ABT_thread_migrate_to_pool(t, main_pool));
    CHECK_EQ(atomic_load(&r1.calls), 2);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(s1.before, 1);
    CHECK_EQ(s1.after, 0);
    CHECK(s1.pool_after == main_pool);
    CHECK(r1.pool_in_cb == main_pool);
    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 0);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
