/* A ULT that migrates itself: as Argobots documents, the call does not
 * switch. The ULT goes on where it is (same ES, same pool, no callback
 * yet) and moves at its next yield, or when it is woken if it blocks
 * first; one that ends first does not move and leaves no count behind.
 * Checked for each of ABT_thread_migrate_to_pool, _to_sched, _to_xstream
 * and ABT_thread_migrate, from the primary ES to ES 1. */
#include "bb_test.h"

#include <stdatomic.h>

enum how { TO_POOL, TO_SCHED, TO_XSTREAM, ANYWHERE, NUM_HOWS };

static ABT_xstream es1;
static ABT_pool pool0, pool1;
static ABT_eventual ev;
static atomic_int callbacks;

typedef struct {
    enum how how;
    int block;      /* blocks on `ev` instead of yielding */
    int ret, rank_before, rank_right_after, calls_right_after, rank_after;
    ABT_pool pool_right_after, pool_after;
} trip;

static void count_callback(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
    atomic_fetch_add(&callbacks, 1);
}

static int rank_now(void)
{
    int rank = -1;
    CHECK_OK(ABT_self_get_xstream_rank(&rank));
    return rank;
}

static int migrate_self(enum how how)
{
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    ABT_sched sched;
    switch (how) {
    case TO_POOL:
        return ABT_thread_migrate_to_pool(self, pool1);
    case TO_SCHED:
        CHECK_OK(ABT_xstream_get_main_sched(es1, &sched));
        return ABT_thread_migrate_to_sched(self, sched);
    case TO_XSTREAM:
        return ABT_thread_migrate_to_xstream(self, es1);
    default:
        return ABT_thread_migrate(self); /* ES 1: the only other one */
    }
}

static void traveller(void *arg)
{
    trip *t = arg;
    t->rank_before = rank_now();
    t->ret = migrate_self(t->how);
    t->rank_right_after = rank_now();
    t->calls_right_after = atomic_load(&callbacks);
    CHECK_OK(ABT_self_get_last_pool(&t->pool_right_after));
    if (t->block)
        CHECK_OK(ABT_eventual_wait(ev, NULL));
    else
        CHECK_OK(ABT_thread_yield());
    t->rank_after = rank_now();
    CHECK_OK(ABT_self_get_last_pool(&t->pool_after));
}

static void travel(enum how how, int block)
{
    trip t = {.how = how, .block = block};
    atomic_store(&callbacks, 0);
    ABT_thread th;
    CHECK_OK(ABT_thread_create(pool0, traveller, &t, ABT_THREAD_ATTR_NULL, &th));
    CHECK_OK(ABT_thread_set_callback(th, count_callback, NULL));
    if (block) {
        ABT_thread_state state;
        do {
            CHECK_OK(ABT_thread_yield());
            CHECK_OK(ABT_thread_get_state(th, &state));
        } while (state != ABT_THREAD_STATE_BLOCKED);
        CHECK_OK(ABT_eventual_set(ev, NULL, 0));
    }
    CHECK_OK(ABT_thread_free(&th));
    if (block)
        CHECK_OK(ABT_eventual_reset(ev));
    CHECK_EQ(t.ret, ABT_SUCCESS);
    CHECK_EQ(t.rank_before, 0);
    CHECK_EQ(t.rank_right_after, 0);
    CHECK_EQ(t.calls_right_after, 0);
    CHECK(t.pool_right_after == pool0);
    CHECK_EQ(t.rank_after, 1);
    CHECK(t.pool_after == pool1);
    CHECK_EQ(atomic_load(&callbacks), 1);
    if (t.rank_after != 1)
        printf("how %d, block %d: ended on ES %d\n", (int)how, block, t.rank_after);
}

/* Asks to move, then ends without a yield: it never moves. */
static void stay_at_home(void *arg)
{
    *(int *)arg = migrate_self(TO_XSTREAM);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    pool0 = bb_test_main_pool();
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_eventual_create(0, &ev));

    for (int how = 0; how < NUM_HOWS; how++) {
        travel((enum how)how, 0);
        travel((enum how)how, 1);
    }

    int ret = -1;
    atomic_store(&callbacks, 0);
    ABT_thread th;
    CHECK_OK(ABT_thread_create(pool0, stay_at_home, &ret, ABT_THREAD_ATTR_NULL, &th));
    CHECK_OK(ABT_thread_set_callback(th, count_callback, NULL));
    CHECK_OK(ABT_thread_free(&th));
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK_EQ(atomic_load(&callbacks), 0);
    size_t total = 99;
    CHECK_OK(ABT_pool_get_total_size(pool1, &total));
    CHECK_EQ(total, 0); /* the pending move's count went with the ULT */
    CHECK_OK(ABT_xstream_join(es1)); /* nothing to wait for */

    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_eventual_free(&ev));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
