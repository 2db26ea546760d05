/* Migrating ULTs that are not waiting in a pool:
 *  - a ULT on ES 0 calls ABT_thread_migrate_to_xstream(self, ES 1): as in
 *    Argobots the call does not switch (still rank 0 right after it, no
 *    callback yet); at its next yield it moves and continues on ES 1, in
 *    ES 1's pool, and its callback ran once;
 *  - a ULT on ES 0 loops yielding while the primary ULT migrates it to ES 1:
 *    it ends up running on ES 1;
 *  - a ULT running on ES 1 (spinning, not yielding) is asked to migrate to
 *    ES 2: nothing happens while it runs (no callback), it moves at its next
 *    yield; a second request before that overrides the first, and the
 *    callback still runs once. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_xstream es1, es2;
static ABT_pool pool1, pool2;

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

static int rank_now(void)
{
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    return rank;
}

/* 1. migrating itself */
static int self_before = -1, self_right_after = -1, self_after = -1, self_ret = -1;
static int self_calls_right_after = -1;
static ABT_pool self_pool_after;
static struct record rec_self;

static void self_mover(void *arg)
{
    (void)arg;
    self_before = rank_now();
    ABT_thread me;
    ABT_self_get_thread(&me);
    self_ret = ABT_thread_migrate_to_xstream(me, es1);
    self_right_after = rank_now();
    self_calls_right_after = atomic_load(&rec_self.calls);
    ABT_thread_yield();
    self_after = rank_now();
    ABT_self_get_last_pool(&self_pool_after);
}

/* 2. yielding loop, migrated by the primary ULT */
static atomic_int yl_rank = -1, yl_iters, yl_stop;
static int yl_final = -1;

static void yielder(void *arg)
{
    (void)arg;
    while (!atomic_load(&yl_stop)) {
        atomic_store(&yl_rank, rank_now());
        atomic_fetch_add(&yl_iters, 1);
        ABT_thread_yield();
    }
    yl_final = rank_now();
}

/* 3. running, not yielding, when the request comes */
static atomic_int sp_started, sp_release;
static int sp_before = -1, sp_after = -1, sp_cb_seen_before_yield = -1;
static ABT_pool sp_pool_after;
static struct record rec_sp;

static void spinner(void *arg)
{
    (void)arg;
    sp_before = rank_now();
    atomic_store(&sp_started, 1);
    while (!atomic_load(&sp_release))
        ; /* runs without yielding */
    sp_cb_seen_before_yield = atomic_load(&rec_sp.calls);
    ABT_thread_yield();
    sp_after = rank_now();
    ABT_self_get_last_pool(&sp_pool_after);
}

static int wait_for_int(atomic_int *v, int value)
{
    for (int i = 0; i < 5000 && atomic_load(v) != value; i++) {
        ABT_thread_yield();
        usleep(1000);
    }
    return atomic_load(v) == value;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es2));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_xstream_get_main_pools(es2, 1, &pool2));

    /* 1 */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool, self_mover, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, cb, &rec_self));
    ABT_thread h = t;
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(self_ret, ABT_SUCCESS);
    CHECK_EQ(self_before, 0);
    CHECK_EQ(self_right_after, 0);
    CHECK_EQ(self_calls_right_after, 0);
    CHECK_EQ(self_after, 1);
    CHECK(self_pool_after == pool1);
    CHECK_EQ(atomic_load(&rec_self.calls), 1);
    CHECK(rec_self.thread == h);
    CHECK(rec_self.pool_in_cb == pool1);

    /* 2 */
    static struct record rec_yl;
    CHECK_OK(ABT_thread_create(main_pool, yielder, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, cb, &rec_yl));
    while (atomic_load(&yl_iters) < 3)
        ABT_thread_yield();
    CHECK_EQ(atomic_load(&yl_rank), 0);
    CHECK_OK(ABT_thread_migrate_to_xstream(t, es1));
    CHECK(wait_for_int(&yl_rank, 1));
    int iters = atomic_load(&yl_iters);
    while (atomic_load(&yl_iters) < iters + 3) /* it keeps going there */
        ABT_thread_yield();
    CHECK_EQ(atomic_load(&yl_rank), 1);
    atomic_store(&yl_stop, 1);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(yl_final, 1);
    CHECK_EQ(atomic_load(&rec_yl.calls), 1);
    CHECK(rec_yl.pool_in_cb == pool1);

    /* 3 */
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    CHECK_OK(ABT_thread_create(pool1, spinner, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_set_callback(t, cb, &rec_sp));
    while (!atomic_load(&sp_started))
        usleep(100);
    ABT_thread_state state;
    CHECK_OK(ABT_thread_get_state(t, &state));
    CHECK_EQ(state, ABT_THREAD_STATE_RUNNING);
    CHECK_OK(ABT_thread_migrate_to_pool(t, idle)); /* overridden below */
    CHECK_OK(ABT_thread_migrate_to_xstream(t, es2));
    usleep(10000);
    CHECK_EQ(atomic_load(&rec_sp.calls), 0); /* still running on ES 1 */
    atomic_store(&sp_release, 1);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(sp_before, 1);
    CHECK_EQ(sp_cb_seen_before_yield, 0);
    CHECK_EQ(sp_after, 2);
    CHECK(sp_pool_after == pool2);
    CHECK_EQ(atomic_load(&rec_sp.calls), 1);
    CHECK(rec_sp.pool_in_cb == pool2);
    size_t size = 1;
    CHECK_OK(ABT_pool_get_size(idle, &size));
    CHECK_EQ(size, 0);

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_xstream_free(&es2));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
