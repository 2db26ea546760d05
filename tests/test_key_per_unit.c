/* Key values are per work unit: ULTs and tasklets spread over the primary ES
 * and three secondary ESs each see NULL for keys they never set, and after
 * setting two keys they read back only their own values, also after yielding
 * while other units on the same ES set theirs. The primary ULT has its own
 * values, which no other unit sees and which the others do not change.
 * ABT_thread_get_specific reads a terminated unit's values; a key created
 * after the units set theirs reads NULL in every unit. The deprecated
 * ABT_key_set/get are the same per-unit slots as ABT_self_set/get_specific. */
#include "bb_test.h"
#include <stdatomic.h>

#define NES 4
#define NULT 32
#define NTASK 32

static ABT_key k1, k2;
static atomic_int bad_ult[NULT], bad_task[NTASK], ult_done;

static void *mark(int kind, int key, int i)
{
    return (void *)(intptr_t)(0x10000 * kind + 0x1000 * key + i + 1);
}

static void ult_fn(void *arg)
{
    int i = (int)(intptr_t)arg;
    void *v = mark(9, 9, 9);
    if (ABT_self_get_specific(k1, &v) != ABT_SUCCESS || v != NULL)
        atomic_fetch_add(&bad_ult[i], 1);
    v = mark(9, 9, 9);
    if (ABT_key_get(k2, &v) != ABT_SUCCESS || v != NULL)
        atomic_fetch_add(&bad_ult[i], 1);
    if (ABT_self_set_specific(k1, mark(1, 1, i)) != ABT_SUCCESS)
        atomic_fetch_add(&bad_ult[i], 1);
    if (ABT_key_set(k2, mark(1, 2, i)) != ABT_SUCCESS)
        atomic_fetch_add(&bad_ult[i], 1);
    for (int round = 0; round < 20; round++) {
        ABT_thread_yield();
        /* read each key through both spellings */
        if (ABT_key_get(k1, &v) != ABT_SUCCESS || v != mark(1, 1, i))
            atomic_fetch_add(&bad_ult[i], 1);
        if (ABT_self_get_specific(k2, &v) != ABT_SUCCESS || v != mark(1, 2, i))
            atomic_fetch_add(&bad_ult[i], 1);
    }
    atomic_fetch_add(&ult_done, 1);
}

static void task_fn(void *arg)
{
    int i = (int)(intptr_t)arg;
    void *v = mark(9, 9, 9);
    if (ABT_self_get_specific(k1, &v) != ABT_SUCCESS || v != NULL)
        atomic_fetch_add(&bad_task[i], 1);
    if (ABT_self_set_specific(k1, mark(2, 1, i)) != ABT_SUCCESS)
        atomic_fetch_add(&bad_task[i], 1);
    if (ABT_key_set(k2, mark(2, 2, i)) != ABT_SUCCESS)
        atomic_fetch_add(&bad_task[i], 1);
    if (ABT_key_get(k1, &v) != ABT_SUCCESS || v != mark(2, 1, i))
        atomic_fetch_add(&bad_task[i], 1);
    if (ABT_self_get_specific(k2, &v) != ABT_SUCCESS || v != mark(2, 2, i))
        atomic_fetch_add(&bad_task[i], 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(NULL, &k1));
    CHECK_OK(ABT_key_create(NULL, &k2));
    CHECK(k1 != ABT_KEY_NULL && k2 != ABT_KEY_NULL && k1 != k2);

    /* The primary ULT: unset reads NULL, then its own values. */
    void *v = mark(9, 9, 9);
    CHECK_OK(ABT_self_get_specific(k1, &v));
    CHECK(v == NULL);
    CHECK_OK(ABT_self_set_specific(k1, mark(3, 1, 0)));
    CHECK_OK(ABT_key_set(k2, mark(3, 2, 0)));

    ABT_xstream es[NES];
    ABT_pool pools[NES];
    CHECK_OK(ABT_xstream_self(&es[0]));
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
    for (int i = 0; i < NES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));

    ABT_thread ults[NULT];
    ABT_task tasks[NTASK];
    for (int i = 0; i < NULT; i++) {
        CHECK_OK(ABT_thread_create(pools[i % NES], ult_fn, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, &ults[i]));
        if (i < NTASK)
            CHECK_OK(ABT_task_create(pools[(i + 1) % NES], task_fn, (void *)(intptr_t)i,
                                     &tasks[i]));
    }
    /* Let ES 0's share run too, and check that the primary's values stay. */
    while (atomic_load(&ult_done) < NULT) {
        ABT_thread_yield();
        CHECK_OK(ABT_self_get_specific(k1, &v));
        CHECK(v == mark(3, 1, 0));
    }
    for (int i = 0; i < NULT; i++)
        CHECK_OK(ABT_thread_join(ults[i]));
    for (int i = 0; i < NTASK; i++)
        CHECK_OK(ABT_task_join(tasks[i]));

    ABT_key k3;
    CHECK_OK(ABT_key_create(NULL, &k3));
    for (int i = 0; i < NULT; i++) {
        CHECK_EQ(atomic_load(&bad_ult[i]), 0);
        CHECK_OK(ABT_thread_get_specific(ults[i], k1, &v));
        CHECK(v == mark(1, 1, i));
        CHECK_OK(ABT_thread_get_specific(ults[i], k2, &v));
        CHECK(v == mark(1, 2, i));
        v = mark(9, 9, 9);
        CHECK_OK(ABT_thread_get_specific(ults[i], k3, &v));
        CHECK(v == NULL);
    }
    for (int i = 0; i < NTASK; i++) {
        CHECK_EQ(atomic_load(&bad_task[i]), 0);
        CHECK_OK(ABT_task_get_specific(tasks[i], k1, &v));
        CHECK(v == mark(2, 1, i));
        CHECK_OK(ABT_task_get_specific(tasks[i], k2, &v));
        CHECK(v == mark(2, 2, i));
        v = mark(9, 9, 9);
        CHECK_OK(ABT_task_get_specific(tasks[i], k3, &v));
        CHECK(v == NULL);
    }
    CHECK_OK(ABT_key_get(k1, &v));
    CHECK(v == mark(3, 1, 0));
    CHECK_OK(ABT_self_get_specific(k2, &v));
    CHECK(v == mark(3, 2, 0));
    v = mark(9, 9, 9);
    CHECK_OK(ABT_self_get_specific(k3, &v));
    CHECK(v == NULL);
    /* The primary ULT seen through its handle. */
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_OK(ABT_thread_get_specific(self, k2, &v));
    CHECK(v == mark(3, 2, 0));

    for (int i = 0; i < NULT; i++)
        CHECK_OK(ABT_thread_free(&ults[i]));
    for (int i = 0; i < NTASK; i++)
        CHECK_OK(ABT_task_free(&tasks[i]));
    for (int i = 1; i < NES; i++) {
        CHECK_OK(ABT_xstream_join(es[i]));
        CHECK_OK(ABT_xstream_free(&es[i]));
    }
    CHECK_OK(ABT_key_free(&k1));
    CHECK_OK(ABT_key_free(&k2));
    CHECK_OK(ABT_key_free(&k3));
    CHECK(k1 == ABT_KEY_NULL && k2 == ABT_KEY_NULL && k3 == ABT_KEY_NULL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
