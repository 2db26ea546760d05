/* Error codes of the migration calls (ABT_thread_migrate_to_pool, _to_sched,
 * _to_xstream, ABT_thread_migrate) and ABT_thread_set_callback:
 *  - before ABT_init: ABT_ERR_UNINITIALIZED;
 *  - NULL thread: INV_THREAD; NULL pool / sched / xstream: INV_POOL /
 *    INV_SCHED / INV_XSTREAM;
 *  - not migratable (ABT_thread_set_migratable(FALSE), or the attribute):
 *    INV_THREAD, until set_migratable(TRUE) makes it migratable again;
 *  - the primary ULT: INV_THREAD (and set_migratable(TRUE) does not change
 *    that);
 *  - target = where the unit already is (its pool, its ES, its ES's main
 *    scheduler): ABT_ERR_MIGRATION_TARGET;
 *  - migrate_to_xstream to an ES that was joined (terminated, not freed):
 *    INV_XSTREAM;
 * and no failed call moves anything or runs the callback. Migration is also
 * allowed from an external thread. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static atomic_int cb_calls;

static void cb(ABT_thread thread, void *arg)
{
    (void)thread;
    (void)arg;
    atomic_fetch_add(&cb_calls, 1);
}

static atomic_int runs;
static int body_rank = -1;

static void body(void *arg)
{
    (void)arg;
    ABT_self_get_xstream_rank(&body_rank);
    atomic_fetch_add(&runs, 1);
}

static atomic_int y_stop, y_started;

static void yielder(void *arg)
{
    (void)arg;
    atomic_store(&y_started, 1);
    while (!atomic_load(&y_stop))
        ABT_thread_yield();
}

static ABT_thread ext_thread;
static ABT_pool ext_target;
static int ext_ret = -1;

static void *external(void *arg)
{
    (void)arg;
    ext_ret = ABT_thread_migrate_to_pool(ext_thread, ext_target);
    return NULL;
}

/* Every migration call on `t` gives `code`. */
static void all_fail(ABT_thread t, ABT_pool pool, ABT_sched sched, ABT_xstream es, int code,
                     int line)
{
    int r[4] = {ABT_thread_migrate_to_pool(t, pool), ABT_thread_migrate_to_sched(t, sched),
                ABT_thread_migrate_to_xstream(t, es), ABT_thread_migrate(t)};
    for (int i = 0; i < 4; i++)
        if (r[i] != code)
            BB_FAIL_AT("(from line %d) migration call #%d returned %d, expected %d", line, i,
                       r[i], code);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_ERR(ABT_thread_migrate_to_pool(ABT_THREAD_NULL, ABT_POOL_NULL),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_migrate_to_sched(ABT_THREAD_NULL, ABT_SCHED_NULL),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_migrate_to_xstream(ABT_THREAD_NULL, ABT_XSTREAM_NULL),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_migrate(ABT_THREAD_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_set_callback(ABT_THREAD_NULL, cb, NULL), ABT_ERR_UNINITIALIZED);

    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es1, es2;
    ABT_pool main_pool, pool1, pool2, idle;
    ABT_sched s1;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));
    CHECK_OK(ABT_xstream_get_main_sched(es1, &s1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    /* NULL thread. */
    all_fail(ABT_THREAD_NULL, pool1, s1, es1, ABT_ERR_INV_THREAD, __LINE__);
    CHECK_ERR(ABT_thread_set_callback(ABT_THREAD_NULL, cb, NULL), ABT_ERR_INV_THREAD);

    /* NULL targets. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(idle, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, cb, NULL));
    CHECK_ERR(ABT_thread_migrate_to_pool(t, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_thread_migrate_to_sched(t, ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_thread_migrate_to_xstream(t, ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);

    /* Already there. */
    CHECK_ERR(ABT_thread_migrate_to_pool(t, idle), ABT_ERR_MIGRATION_TARGET);

    /* Not migratable, then migratable again. */
    CHECK_OK(ABT_thread_set_migratable(t, ABT_FALSE));
    ABT_bool m = ABT_TRUE;
    CHECK_OK(ABT_thread_is_migratable(t, &m));
    CHECK_EQ(m, ABT_FALSE);
    all_fail(t, pool1, s1, es1, ABT_ERR_INV_THREAD, __LINE__);
    CHECK_OK(ABT_thread_set_migratable(t, ABT_TRUE));

    ABT_thread_attr attr;
    ABT_thread fixed;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    CHECK_OK(ABT_thread_attr_set_callback(attr, cb, NULL));
    CHECK_OK(ABT_thread_create(idle, body, NULL, attr, &fixed));
    CHECK_OK(ABT_thread_attr_free(&attr));
    all_fail(fixed, pool1, s1, es1, ABT_ERR_INV_THREAD, __LINE__);

    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 2);
    CHECK_EQ(atomic_load(&cb_calls), 0);

    /* The primary ULT. */
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    m = ABT_TRUE;
    CHECK_OK(ABT_thread_is_migratable(self, &m));
    CHECK_EQ(m, ABT_FALSE);
    all_fail(self, pool1, s1, es1, ABT_ERR_INV_THREAD, __LINE__);
    CHECK_OK(ABT_thread_set_migratable(self, ABT_TRUE));
    all_fail(self, pool1, s1, es1, ABT_ERR_INV_THREAD, __LINE__);
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_self_get_last_pool(&last));
    CHECK(last == main_pool);

    /* Target = where it runs: a ULT on ES 1. */
    ABT_thread y;
    CHECK_OK(ABT_thread_create(pool1, yielder, NULL, ABT_THREAD_ATTR_NULL, &y));
    CHECK_OK(ABT_thread_set_callback(y, cb, NULL));
    while (!atomic_load(&y_started))
        usleep(100);
    CHECK_ERR(ABT_thread_migrate_to_pool(y, pool1), ABT_ERR_MIGRATION_TARGET);
    CHECK_ERR(ABT_thread_migrate_to_sched(y, s1), ABT_ERR_MIGRATION_TARGET);
    CHECK_ERR(ABT_thread_migrate_to_xstream(y, es1), ABT_ERR_MIGRATION_TARGET);
    atomic_store(&y_stop, 1);
    CHECK_OK(ABT_thread_free(&y));
    CHECK_EQ(atomic_load(&cb_calls), 0);

    /* From an external thread: allowed. */
    ext_thread = t;
    ext_target = pool2;
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, external, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_SUCCESS);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(body_rank, 2);
    CHECK_EQ(atomic_load(&cb_calls), 1);

    /* A terminated (joined, not freed) ES. */
    CHECK_OK(ABT_xstream_join(es2));
    ABT_xstream_state st = ABT_XSTREAM_STATE_RUNNING;
    CHECK_OK(ABT_xstream_get_state(es2, &st));
    CHECK_EQ(st, ABT_XSTREAM_STATE_TERMINATED);
    CHECK_OK(ABT_thread_create(idle, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_thread_migrate_to_xstream(t, es2), ABT_ERR_INV_XSTREAM);
    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 2);
    CHECK_OK(ABT_thread_migrate_to_xstream(t, es1));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(body_rank, 1);
    CHECK_OK(ABT_xstream_free(&es2));

    /* Let the non-migratable one run: push it by hand. */
    ABT_unit u;
    CHECK_OK(ABT_pool_pop(idle, &u));
    CHECK(u != ABT_UNIT_NULL);
    CHECK_OK(ABT_pool_push(main_pool, u));
    CHECK_OK(ABT_thread_free(&fixed));
    CHECK_EQ(body_rank, 0);
    CHECK_EQ(atomic_load(&runs), 3);
    CHECK_EQ(atomic_load(&cb_calls), 1); /* only the first t had a callback */

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
