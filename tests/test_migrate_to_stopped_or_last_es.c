/* Where ABT_thread_migrate_to_xstream and ABT_thread_migrate may send a
 * unit (REFERENCE, section 9):
 *  1. Not to a terminated ES, even one whose main scheduler was replaced
 *     after it terminated (ABT_xstream_set_main_sched_basic swaps it in
 *     without starting it) and that ended by ABT_sched_exit of its old
 *     scheduler, so that no stop request is pending on the new one:
 *     migrate_to_xstream gives ABT_ERR_INV_XSTREAM, and ABT_thread_migrate,
 *     with no other ES to go to, ABT_ERR_MIGRATION_NA.
 *  2. ABT_thread_migrate never picks the ES the unit last ran on ("another
 *     running ES"), also when the unit waits meanwhile in a pool of another
 *     ES, which serves it already: with only those two ESs,
 *     ABT_ERR_MIGRATION_NA.
 * Mutation testing (migrate.c: xstream_is_running, and the skip of the last
 * ES in count_move_elsewhere) found nothing checking either. */
#include "bb_test.h"

#include <stdatomic.h>

static atomic_int go;

static void noop(void *arg)
{
    (void)arg;
}

/* Ends the ES it runs on by a request to its main scheduler alone (no stop
 * request of the ES itself, unlike a join, a cancel or ABT_xstream_exit). */
static void exit_my_sched(void *arg)
{
    (void)arg;
    ABT_xstream self;
    ABT_sched s;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_sched(self, &s));
    CHECK_OK(ABT_sched_exit(s));
}

static void wait_for_go(void *arg)
{
    (void)arg;
    while (!atomic_load(&go))
        ABT_thread_yield();
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool main_pool = bb_test_main_pool();

    /* 1. A terminated ES with a fresh main scheduler. */
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_thread ender;
    CHECK_OK(ABT_thread_create_on_xstream(es, exit_my_sched, NULL, ABT_THREAD_ATTR_NULL, &ender));
    CHECK_OK(ABT_thread_free(&ender));
    ABT_xstream_state st = ABT_XSTREAM_STATE_RUNNING;
    while (st != ABT_XSTREAM_STATE_TERMINATED) /* not joined: that is a stop request */
        CHECK_OK(ABT_xstream_get_state(es, &st));
    CHECK_OK(ABT_xstream_set_main_sched_basic(es, ABT_SCHED_BASIC, 0, NULL));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_thread_migrate_to_xstream(t, es), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_thread_migrate(t), ABT_ERR_MIGRATION_NA);
    ABT_pool p = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &p));
    CHECK(p == main_pool);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&es));

    /* 2. The unit last ran on ES1 and now waits in the primary ES's pool. */
    ABT_xstream es1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    ABT_pool p1;
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &p1));
    atomic_store(&go, 0);
    CHECK_OK(ABT_thread_create(p1, wait_for_go, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_xstream last = ABT_XSTREAM_NULL;
    while (last == ABT_XSTREAM_NULL)
        CHECK_OK(ABT_thread_get_last_xstream(t, &last));
    CHECK(last == es1);
    CHECK_OK(ABT_thread_migrate_to_pool(t, main_pool)); /* now, or at its next yield */
    p = ABT_POOL_NULL;
    while (p != main_pool) /* no ABT yield here: the primary ES must not run it */
        CHECK_OK(ABT_thread_get_last_pool(t, &p));
    CHECK_ERR(ABT_thread_migrate(t), ABT_ERR_MIGRATION_NA);
    CHECK_OK(ABT_thread_get_last_pool(t, &p));
    CHECK(p == main_pool);
    atomic_store(&go, 1);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
