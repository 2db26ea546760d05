/* The map from a user pool's units back to their ULTs (src/pool/unit_map.c)
 * while its chains double, several times, under two ESs that insert, find
 * and remove at once. Two creator ULTs, one on each of two secondary ESs,
 * each create NPER ULTs into one shared new-style user pool that no
 * scheduler serves yet; after each create, a creator looks up the unit just
 * made and one made earlier (ABT_thread_get_unit, then ABT_unit_get_thread,
 * which goes through the map) while the other creator grows the map. Then
 * the primary ULT looks up every unit again, the primary ES's scheduler
 * starts serving the pool, and the primary frees every ULT (each runs once,
 * each unit is given back once, and an ABT_unit_get_thread of a freed unit's
 * value finds nothing). Fails if the doubling loses, duplicates or misplaces
 * an entry, or if a remove misses one. */
#include <sched.h>

#include "pool_user_util.h"

#define NPER 12000 /* per creator: the map doubles at ~3,000 units, again at ~6,000, ... */

static ABT_pool P;
static up_state st;
static ABT_thread made[2][NPER];
static atomic_int ran, creators_done, bad_lookups;

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* Whether the map gives `t` back for its unit. */
static int maps_back(ABT_thread t)
{
    ABT_unit unit = ABT_UNIT_NULL;
    ABT_thread back = ABT_THREAD_NULL;
    return ABT_thread_get_unit(t, &unit) == ABT_SUCCESS && unit != ABT_UNIT_NULL &&
           ABT_unit_get_thread(unit, &back) == ABT_SUCCESS && back == t;
}

static void creator(void *arg)
{
    int me = (int)(intptr_t)arg;
    uint32_t seed = 12345u + (uint32_t)me;
    for (int i = 0; i < NPER; i++) {
        CHECK_OK(ABT_thread_create(P, body, NULL, ABT_THREAD_ATTR_NULL, &made[me][i]));
        seed = seed * 1664525u + 1013904223u;
        int earlier = (int)((seed >> 8) % (uint32_t)(i + 1));
        if (!maps_back(made[me][i]) || !maps_back(made[me][earlier]))
            atomic_fetch_add(&bad_lookups, 1);
    }
    atomic_fetch_add(&creators_done, 1);
}

static ABT_xstream start_creator_es(int me, ABT_thread *t)
{
    ABT_xstream es;
    ABT_pool own;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &own));
    CHECK_OK(ABT_thread_create(own, creator, (void *)(intptr_t)me, ABT_THREAD_ATTR_NULL, t));
    return es;
}

int main(void)
{
    BB_TEST_BEGIN(120);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    P = up_new_pool_with(NULL, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));

    /* The primary ES's scheduler: its own pool first, P second. While the
     * primary ULT never blocks (it waits below with sched_yield, not a
     * blocking call), nothing runs P's ULTs. */
    ABT_xstream self;
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    pools[1] = P;

    ABT_thread creators[2];
    ABT_xstream es[2];
    for (int k = 0; k < 2; k++)
        es[k] = start_creator_es(k, &creators[k]);
    while (atomic_load(&creators_done) < 2)
        sched_yield();
    CHECK_EQ(atomic_load(&bad_lookups), 0);
    CHECK_EQ(atomic_load(&ran), 0);
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(P, &size));
    CHECK_EQ(size, (size_t)(2 * NPER));

    int lost = 0;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < NPER; i++)
            lost += !maps_back(made[k][i]);
    CHECK_EQ(lost, 0);

    ABT_unit some_unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(made[1][NPER / 2], &some_unit));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 2, pools));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < NPER; i++)
            CHECK_OK(ABT_thread_free(&made[k][i]));
    CHECK_EQ(atomic_load(&ran), 2 * NPER);
    CHECK_EQ(atomic_load(&st.n_create), 2 * NPER);
    CHECK_EQ(atomic_load(&st.n_free_unit), 2 * NPER);
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
    ABT_thread gone = ABT_THREAD_NULL;
    CHECK_ERR(ABT_unit_get_thread(some_unit, &gone), ABT_ERR_INV_UNIT);
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, pools));

    for (int k = 0; k < 2; k++) {
        CHECK_OK(ABT_thread_free(&creators[k]));
        CHECK_OK(ABT_xstream_free(&es[k]));
    }
    CHECK_OK(ABT_pool_free(&P));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
