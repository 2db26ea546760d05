/* Migrating tasklets:
 *  - a READY tasklet waiting in a pool nobody serves, migrated with
 *    ABT_thread_migrate_to_pool (or _to_xstream): it runs on the target ES,
 *    associated with the target pool, and its callback ran once;
 *  - a tasklet that is running right now cannot move (a tasklet never leaves
 *    its ES): migrating it from elsewhere, or migrating itself, returns
 *    ABT_ERR_MIGRATION_NA; it finishes where it is and no callback runs;
 *  - a non-migratable tasklet (ABT_task_set_migratable FALSE): INV_THREAD. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_xstream es1, es2;
static ABT_pool pool1, pool2, idle;

struct record {
    atomic_int calls;
    ABT_thread thread;
    ABT_pool pool_in_cb;
};

static void cb(ABT_thread thread, void *arg)
{
    struct record *r = arg;
    r->thread = thread;
    ABT_thread_get_last_pool(thread, &r->pool_in_cb);
    atomic_fetch_add(&r->calls, 1);
}

struct ran {
    atomic_int runs;
    int rank;
    ABT_pool pool;
};

static void task_body(void *arg)
{
    struct ran *r = arg;
    ABT_self_get_xstream_rank(&r->rank);
    ABT_self_get_last_pool(&r->pool);
    atomic_fetch_add(&r->runs, 1);
}

static atomic_int spin_started, spin_release;
static int self_ret[3] = {-1, -1, -1};
static int spin_rank = -1;

static void spinning_task(void *arg)
{
    (void)arg;
    ABT_thread me;
    ABT_self_get_thread(&me);
    self_ret[0] = ABT_thread_migrate_to_pool(me, idle);
    self_ret[1] = ABT_thread_migrate_to_xstream(me, es2);
    self_ret[2] = ABT_thread_migrate(me);
    atomic_store(&spin_started, 1);
    while (!atomic_load(&spin_release))
        ;
    ABT_self_get_xstream_rank(&spin_rank);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    /* READY tasklets. */
    static struct ran ra, rb;
    static struct record reca, recb;
    ABT_task a, b;
    CHECK_OK(ABT_task_create(idle, task_body, &ra, &a));
    CHECK_OK(ABT_task_create(idle, task_body, &rb, &b));
    CHECK_OK(ABT_thread_set_callback(a, cb, &reca));
    CHECK_OK(ABT_thread_set_callback(b, cb, &recb));
    ABT_bool m = ABT_FALSE;
    CHECK_OK(ABT_task_is_migratable(a, &m));
    CHECK_EQ(m, ABT_TRUE);
    CHECK_OK(ABT_thread_migrate_to_pool(a, pool1));
    CHECK_OK(ABT_thread_migrate_to_xstream(b, es2));
    ABT_task ha = a;
    CHECK_OK(ABT_task_free(&a));
    CHECK_OK(ABT_task_free(&b));
    CHECK_EQ(atomic_load(&ra.runs), 1);
    CHECK_EQ(ra.rank, 1);
    CHECK(ra.pool == pool1);
    CHECK_EQ(atomic_load(&reca.calls), 1);
    CHECK(reca.thread == ha);
    CHECK(reca.pool_in_cb == pool1);
    CHECK_EQ(atomic_load(&rb.runs), 1);
    CHECK_EQ(rb.rank, 2);
    CHECK(rb.pool == pool2);
    CHECK_EQ(atomic_load(&recb.calls), 1);
    CHECK(recb.pool_in_cb == pool2);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 0);

    /* Running tasklet. */
    static struct record recs;
    ABT_task s;
    CHECK_OK(ABT_task_create(pool1, spinning_task, NULL, &s));
    CHECK_OK(ABT_thread_set_callback(s, cb, &recs));
    while (!atomic_load(&spin_started))
        usleep(100);
    CHECK_ERR(ABT_thread_migrate_to_pool(s, pool2), ABT_ERR_MIGRATION_NA);
    CHECK_ERR(ABT_thread_migrate_to_xstream(s, es2), ABT_ERR_MIGRATION_NA);
    atomic_store(&spin_release, 1);
    CHECK_OK(ABT_task_free(&s));
    for (int i = 0; i < 3; i++)
        CHECK_EQ(self_ret[i], ABT_ERR_MIGRATION_NA);
    CHECK_EQ(spin_rank, 1);
    CHECK_EQ(atomic_load(&recs.calls), 0);

    /* Not migratable. */
    static struct ran rc;
    ABT_task c;
    CHECK_OK(ABT_task_create(idle, task_body, &rc, &c));
    CHECK_OK(ABT_task_set_migratable(c, ABT_FALSE));
    CHECK_ERR(ABT_thread_migrate_to_pool(c, pool1), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_migrate_to_xstream(c, es1), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_task_set_migratable(c, ABT_TRUE));
    CHECK_OK(ABT_thread_migrate_to_pool(c, pool1));
    CHECK_OK(ABT_task_free(&c));
    CHECK_EQ(rc.rank, 1);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
