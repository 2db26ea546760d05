/* ABT_thread_migrate_to_sched:
 *  - to another ES's main scheduler (predefined, no get_migr_pool): the unit
 *    goes to that scheduler's first pool and runs on that ES;
 *  - to a user ABT_sched_def scheduler whose get_migr_pool returns its second
 *    pool: the unit lands in that pool (checked while the scheduler is not
 *    running yet: pool sizes, ABT_thread_get_last_pool, the callback), and
 *    runs from there once an ES runs the scheduler; a second READY unit
 *    migrated to it while it runs also lands in pool 1;
 *  - a unit already in any pool of the target scheduler, a get_migr_pool that
 *    returns ABT_POOL_NULL, and a scheduler with no pool and no get_migr_pool:
 *    ABT_ERR_MIGRATION_TARGET, and nothing moves. */
#include "bb_test.h"
#include <sched.h>
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

struct ran {
    int rank;
    ABT_pool pool;
};

static void body(void *arg)
{
    struct ran *r = arg;
    ABT_self_get_xstream_rank(&r->rank);
    ABT_self_get_last_pool(&r->pool);
}

static ABT_pool second_pool(ABT_sched sched)
{
    ABT_pool pools[2] = {ABT_POOL_NULL, ABT_POOL_NULL};
    ABT_sched_get_pools(sched, 2, 0, pools);
    return pools[1];
}

static ABT_pool no_pool(ABT_sched sched)
{
    (void)sched;
    return ABT_POOL_NULL;
}

/* A plain user scheduler: every pool in order, events every 8 rounds. */
static void user_run(ABT_sched sched)
{
    int n = 0;
    ABT_sched_get_num_pools(sched, &n);
    ABT_pool pools[4];
    ABT_sched_get_pools(sched, n, 0, pools);
    for (unsigned round = 1;; round++) {
        int ran = 0;
        for (int i = 0; i < n && !ran; i++) {
            ABT_thread t = ABT_THREAD_NULL;
            ABT_pool_pop_thread(pools[i], &t);
            if (t != ABT_THREAD_NULL) {
                ABT_unit u;
                ABT_thread_get_unit(t, &u);
                ABT_xstream_run_unit(u, pools[i]);
                ran = 1;
            }
        }
        if (!ran || round % 8 == 0) {
            ABT_xstream_check_events(sched);
            ABT_bool stop = ABT_FALSE;
            ABT_sched_has_to_stop(sched, &stop);
            if (stop)
                break;
            if (!ran)
                sched_yield();
        }
    }
}

static size_t size_of(ABT_pool p)
{
    size_t s = 99;
    CHECK_OK(ABT_pool_get_size(p, &s));
    return s;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));

    /* To another ES's main scheduler. */
    ABT_xstream es1;
    ABT_sched s1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_sched(es1, &s1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    static struct ran ran_a;
    static struct record rec_a;
    ABT_thread a;
    CHECK_OK(ABT_thread_create(idle, body, &ran_a, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_set_callback(a, cb, &rec_a));
    CHECK_OK(ABT_thread_migrate_to_sched(a, s1));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_EQ(ran_a.rank, 1);
    CHECK(ran_a.pool == pool1);
    CHECK_EQ(atomic_load(&rec_a.calls), 1);
    CHECK(rec_a.pool_in_cb == pool1);
    CHECK_EQ(size_of(idle), 0);

    /* To a user scheduler whose get_migr_pool picks its second pool. */
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT,
                         .init = NULL,
                         .run = user_run,
                         .free = NULL,
                         .get_migr_pool = second_pool};
    ABT_pool up[2];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &up[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &up[1]));
    ABT_sched us;
    CHECK_OK(ABT_sched_create(&def, 2, up, ABT_SCHED_CONFIG_NULL, &us));

    static struct ran ran_b, ran_c, ran_d;
    static struct record rec_b, rec_c;
    ABT_thread b, c, d;
    CHECK_OK(ABT_thread_create(idle, body, &ran_b, ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_set_callback(b, cb, &rec_b));
    CHECK_OK(ABT_thread_migrate_to_sched(b, us));
    CHECK_EQ(size_of(idle), 0);
    CHECK_EQ(size_of(up[0]), 0);
    CHECK_EQ(size_of(up[1]), 1);
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(b, &last));
    CHECK(last == up[1]);
    CHECK_EQ(atomic_load(&rec_b.calls), 1);
    CHECK(rec_b.pool_in_cb == up[1]);

    /* Already in one of its pools (pool 1, and pool 0): MIGRATION_TARGET. */
    CHECK_ERR(ABT_thread_migrate_to_sched(b, us), ABT_ERR_MIGRATION_TARGET);
    CHECK_OK(ABT_thread_create(up[0], body, &ran_d, ABT_THREAD_ATTR_NULL, &d));
    CHECK_ERR(ABT_thread_migrate_to_sched(d, us), ABT_ERR_MIGRATION_TARGET);
    CHECK_EQ(size_of(up[0]), 1);
    CHECK_EQ(size_of(up[1]), 1);
    CHECK_EQ(atomic_load(&rec_b.calls), 1);

    /* Now an ES runs it: b and d run there. */
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create(us, &es2));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_thread_free(&d));
    CHECK_EQ(ran_b.rank, 2);
    CHECK(ran_b.pool == up[1]);
    CHECK_EQ(ran_d.rank, 2);
    CHECK(ran_d.pool == up[0]);

    /* A READY unit migrated to the running user scheduler. */
    CHECK_OK(ABT_thread_create(idle, body, &ran_c, ABT_THREAD_ATTR_NULL, &c));
    CHECK_OK(ABT_thread_set_callback(c, cb, &rec_c));
    CHECK_OK(ABT_thread_migrate_to_sched(c, us));
    CHECK_OK(ABT_thread_free(&c));
    CHECK_EQ(ran_c.rank, 2);
    CHECK(ran_c.pool == up[1]);
    CHECK_EQ(atomic_load(&rec_c.calls), 1);
    CHECK(rec_c.pool_in_cb == up[1]);

    /* get_migr_pool returning NULL; no pool and no get_migr_pool. */
    ABT_sched_def def_null = def;
    def_null.get_migr_pool = no_pool;
    ABT_sched sn, s0;
    CHECK_OK(ABT_sched_create(&def_null, 2, up, ABT_SCHED_CONFIG_NULL, &sn));
    ABT_sched_def def_plain = def;
    def_plain.get_migr_pool = NULL;
    CHECK_OK(ABT_sched_create(&def_plain, 0, NULL, ABT_SCHED_CONFIG_NULL, &s0));
    static struct ran ran_e;
    ABT_thread e;
    CHECK_OK(ABT_thread_create(idle, body, &ran_e, ABT_THREAD_ATTR_NULL, &e));
    CHECK_ERR(ABT_thread_migrate_to_sched(e, sn), ABT_ERR_MIGRATION_TARGET);
    CHECK_ERR(ABT_thread_migrate_to_sched(e, s0), ABT_ERR_MIGRATION_TARGET);
    CHECK_EQ(size_of(idle), 1);
    CHECK_OK(ABT_thread_get_last_pool(e, &last));
    CHECK(last == idle);
    CHECK_OK(ABT_thread_migrate_to_sched(e, s1)); /* clean up through ES 1 */
    CHECK_OK(ABT_thread_free(&e));
    CHECK_EQ(ran_e.rank, 1);

    CHECK_OK(ABT_sched_free(&sn));
    CHECK_OK(ABT_sched_free(&s0));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_sched_free(&us)); /* not automatic: still ours */
    CHECK_OK(ABT_pool_free(&up[0]));
    CHECK_OK(ABT_pool_free(&up[1]));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
