/* The primary ES stops only in ABT_finalize: ABT_sched_exit and
 * ABT_sched_finish on its main scheduler are ignored (REFERENCE.md, section
 * 2). They must leave nothing behind: ABT_sched_has_to_stop on the scheduler
 * says ABT_FALSE (after the loop has looked at its events, for which the
 * primary ULT yields a bounded number of times), units still run there, the
 * ES still runs, and a ULT can still be migrated to the primary ES. A
 * finish used to stay in force (it never completes there, the primary ULT
 * being always counted): has_to_stop said TRUE until finalize, and every
 * migration to the primary ES failed with INV_XSTREAM. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int ran, go;

static void work(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

static void spin_until_go(void *arg)
{
    (void)arg;
    while (!atomic_load(&go))
        ABT_thread_yield();
}

static int settles(ABT_sched sched)
{
    for (int i = 0; i < 200000; i++) {
        ABT_bool stop = ABT_TRUE;
        CHECK_OK(ABT_sched_has_to_stop(sched, &stop));
        if (stop == ABT_FALSE)
            return 1;
        ABT_thread_yield();
    }
    return 0;
}

/* A ULT on `es` moves to the primary ES and finishes there. */
static void check_migration_to_primary(ABT_xstream es, ABT_xstream primary)
{
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    atomic_store(&go, 0);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, spin_until_go, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_migrate_to_xstream(t, primary));
    atomic_store(&go, 1);
    CHECK_OK(ABT_thread_free(&t));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self, es;
    ABT_sched sched;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_sched(self, &sched));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool pool = bb_test_main_pool();
    for (int i = 0; i < 4; i++) {
        if (i & 1)
            CHECK_OK(ABT_sched_finish(sched));
        else
            CHECK_OK(ABT_sched_exit(sched));
        int ok = settles(sched);
        if (!ok)
            fprintf(stderr, "request %d (%s) to the primary ES's scheduler is never dropped\n", i,
                    i & 1 ? "finish" : "exit");
        CHECK(ok);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_thread_free(&t));
        check_migration_to_primary(es, self);
    }
    CHECK_EQ(atomic_load(&ran), 4);
    ABT_xstream_state state;
    CHECK_OK(ABT_xstream_get_state(self, &state));
    CHECK_EQ(state, ABT_XSTREAM_STATE_RUNNING);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
