/* A ULT keeps its key values when it migrates: it sets two keys on the
 * primary ES, then (yielding) is migrated by the primary ULT to ES 1 and then
 * to ES 2; on each ES it reads back the same values, and a key it never set
 * still reads NULL. A ULT that migrates itself (the move happens at its
 * next yield) sees them right after that yield. The values' destructor runs
 * once, when the ULT is freed. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_key k1, k2, unset;
static atomic_int rank_now = -1, bad, iters, stop, destroyed;
static ABT_xstream es[3];
static int self_rank_before = -1, self_rank_after = -1, self_ret = -1;
static void *self_v1, *self_v2;

static int v1, v2; /* their addresses are the values */

static void dtor(void *value)
{
    if (value == &v1 || value == &v2)
        atomic_fetch_add(&destroyed, 1);
}

static void check_values(void)
{
    void *v = NULL;
    if (ABT_self_get_specific(k1, &v) != ABT_SUCCESS || v != &v1)
        atomic_fetch_add(&bad, 1);
    if (ABT_self_get_specific(k2, &v) != ABT_SUCCESS || v != &v2)
        atomic_fetch_add(&bad, 1);
    v = &v1;
    if (ABT_self_get_specific(unset, &v) != ABT_SUCCESS || v != NULL)
        atomic_fetch_add(&bad, 1);
}

static void hopper(void *arg)
{
    (void)arg;
    ABT_self_set_specific(k1, &v1);
    ABT_self_set_specific(k2, &v2);
    while (!atomic_load(&stop)) {
        int r = -1;
        ABT_self_get_xstream_rank(&r);
        check_values();
        atomic_store(&rank_now, r);
        atomic_fetch_add(&iters, 1);
        ABT_thread_yield();
    }
}

static void self_mover(void *arg)
{
    (void)arg;
    ABT_self_set_specific(k1, &v1);
    ABT_self_set_specific(k2, &v2);
    ABT_self_get_xstream_rank(&self_rank_before);
    ABT_thread me;
    ABT_self_get_thread(&me);
    self_ret = ABT_thread_migrate_to_xstream(me, es[2]);
    ABT_thread_yield();
    ABT_self_get_xstream_rank(&self_rank_after);
    ABT_self_get_specific(k1, &self_v1);
    ABT_self_get_specific(k2, &self_v2);
}

/* Wait until the hopper has done a few rounds on ES `rank`. */
static int wait_on(int rank)
{
    for (int i = 0; i < 20000; i++) {
        if (atomic_load(&rank_now) == rank) {
            int it = atomic_load(&iters);
            while (atomic_load(&iters) < it + 3)
                ABT_thread_yield();
            return atomic_load(&rank_now) == rank;
        }
        ABT_thread_yield();
        usleep(200);
    }
    return 0;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor, &k1));
    CHECK_OK(ABT_key_create(dtor, &k2));
    CHECK_OK(ABT_key_create(dtor, &unset));
    ABT_pool pool0;
    CHECK_OK(ABT_xstream_self(&es[0]));
    CHECK_OK(ABT_xstream_get_main_pools(es[0], 1, &pool0));
    for (int i = 1; i < 3; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));

    ABT_thread h;
    CHECK_OK(ABT_thread_create(pool0, hopper, NULL, ABT_THREAD_ATTR_NULL, &h));
    CHECK(wait_on(0));
    CHECK_OK(ABT_thread_migrate_to_xstream(h, es[1]));
    CHECK(wait_on(1));
    CHECK_OK(ABT_thread_migrate_to_xstream(h, es[2]));
    CHECK(wait_on(2));
    atomic_store(&stop, 1);
    CHECK_OK(ABT_thread_join(h));
    CHECK_EQ(atomic_load(&bad), 0);
    void *v = NULL;
    CHECK_OK(ABT_thread_get_specific(h, k1, &v));
    CHECK(v == &v1);
    CHECK_EQ(atomic_load(&destroyed), 0);
    CHECK_OK(ABT_thread_free(&h));
    CHECK_EQ(atomic_load(&destroyed), 2);

    ABT_thread m;
    CHECK_OK(ABT_thread_create(pool0, self_mover, NULL, ABT_THREAD_ATTR_NULL, &m));
    CHECK_OK(ABT_thread_join(m));
    CHECK_EQ(self_ret, ABT_SUCCESS);
    CHECK_EQ(self_rank_before, 0);
    CHECK_EQ(self_rank_after, 2);
    CHECK(self_v1 == &v1);
    CHECK(self_v2 == &v2);
    CHECK_OK(ABT_thread_free(&m));
    CHECK_EQ(atomic_load(&destroyed), 4);

    for (int i = 1; i < 3; i++) {
        CHECK_OK(ABT_xstream_join(es[i]));
        CHECK_OK(ABT_xstream_free(&es[i]));
    }
    CHECK_OK(ABT_key_free(&k1));
    CHECK_OK(ABT_key_free(&k2));
    CHECK_OK(ABT_key_free(&unset));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&destroyed), 4);
    BB_TEST_END();
}
