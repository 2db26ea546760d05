/* Many keys per unit: 100 keys (half with a destructor, half without), set
 * in a shuffled order by ULTs and tasklets on two ESs and by the primary ULT,
 * each read back with its own value after yields; every unit reads NULL for a
 * key it left unset. Freeing the units runs the destructor exactly once for
 * each non-NULL value of the keys that have one (the primary ULT's inside
 * ABT_finalize). */
#include "bb_test.h"
#include <stdatomic.h>

#define NKEYS 100
#define NUNITS 9 /* 4 ULTs, 4 tasklets, the primary ULT (index 8) */

static ABT_key keys[NKEYS], spare;
static int vals[NUNITS][NKEYS];
static atomic_int calls[NUNITS][NKEYS], stray, bad[NUNITS];

static void dtor(void *value)
{
    int *p = value;
    if (p >= &vals[0][0] && p < &vals[0][0] + NUNITS * NKEYS) {
        long off = p - &vals[0][0];
        atomic_fetch_add(&calls[off / NKEYS][off % NKEYS], 1);
    } else
        atomic_fetch_add(&stray, 1);
}

/* Unit u leaves key (u * 7) % NKEYS unset (NULL) and sets the others. */
static void *value_for(int u, int j)
{
    return j == (u * 7) % NKEYS ? NULL : (void *)&vals[u][j];
}

static void set_all(int u)
{
    for (int n = 0; n < NKEYS; n++) {
        int j = (n * 37 + u) % NKEYS; /* 37 is prime to 100: a permutation */
        if (value_for(u, j) && ABT_self_set_specific(keys[j], value_for(u, j)) != ABT_SUCCESS)
            atomic_fetch_add(&bad[u], 1);
    }
}

static void check_all(int u)
{
    for (int j = 0; j < NKEYS; j++) {
        void *v = &stray;
        if (ABT_self_get_specific(keys[j], &v) != ABT_SUCCESS || v != value_for(u, j))
            atomic_fetch_add(&bad[u], 1);
    }
    void *v = &stray;
    if (ABT_self_get_specific(spare, &v) != ABT_SUCCESS || v != NULL)
        atomic_fetch_add(&bad[u], 1);
}

static void ult_fn(void *arg)
{
    int u = (int)(intptr_t)arg;
    set_all(u);
    for (int r = 0; r < 5; r++) {
        ABT_thread_yield();
        check_all(u);
    }
}

static void task_fn(void *arg)
{
    int u = (int)(intptr_t)arg;
    set_all(u);
    check_all(u);
}

static int with_dtor(int j)
{
    return j % 2 == 0;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    for (int j = 0; j < NKEYS; j++)
        CHECK_OK(ABT_key_create(with_dtor(j) ? dtor : NULL, &keys[j]));
    CHECK_OK(ABT_key_create(dtor, &spare));
    ABT_xstream es0, es1;
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pools[1]));

    ABT_thread units[8];
    for (int u = 0; u < 4; u++)
        CHECK_OK(ABT_thread_create(pools[u % 2], ult_fn, (void *)(intptr_t)u,
                                   ABT_THREAD_ATTR_NULL, &units[u]));
    for (int u = 4; u < 8; u++)
        CHECK_OK(ABT_task_create(pools[u % 2], task_fn, (void *)(intptr_t)u, &units[u]));
    set_all(8);
    check_all(8);
    CHECK_OK(ABT_thread_join_many(8, units));
    check_all(8);
    for (int u = 0; u < NUNITS; u++)
        CHECK_EQ(atomic_load(&bad[u]), 0);
    /* through the handles */
    for (int u = 0; u < 8; u++) {
        for (int j = 0; j < NKEYS; j += 9) {
            void *v = &stray;
            CHECK_OK(ABT_thread_get_specific(units[u], keys[j], &v));
            CHECK(v == value_for(u, j));
        }
    }
    CHECK_OK(ABT_thread_free_many(8, units));
    for (int u = 0; u < NUNITS; u++)
        for (int j = 0; j < NKEYS; j++)
            CHECK_EQ(atomic_load(&calls[u][j]),
                     u < 8 && with_dtor(j) && value_for(u, j) ? 1 : 0);

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    for (int j = 0; j < NKEYS; j++)
        CHECK_OK(ABT_key_free(&keys[j]));
    CHECK_OK(ABT_key_free(&spare));
    CHECK_OK(ABT_finalize());
    for (int j = 0; j < NKEYS; j++)
        CHECK_EQ(atomic_load(&calls[8][j]), with_dtor(j) && value_for(8, j) ? 1 : 0);
    CHECK_EQ(atomic_load(&stray), 0);
    BB_TEST_END();
}
