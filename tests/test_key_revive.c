/* Reviving a unit keeps its key values and runs no destructor: a ULT sets a
 * value, terminates, is revived (on another ES, with another function) and
 * reads the same value there; it adds a second value; only ABT_thread_free
 * runs the destructors, once per value. The same for a tasklet revived with
 * ABT_task_revive. */
#include "bb_test.h"
#include <stdatomic.h>

static int a, b, ta, tb;
static atomic_int calls_a, calls_b, calls_ta, calls_tb, stray;
static ABT_key k1, k2;
static void *seen1, *seen2;
static int seen_rank = -1;

static void dtor(void *value)
{
    if (value == &a)
        atomic_fetch_add(&calls_a, 1);
    else if (value == &b)
        atomic_fetch_add(&calls_b, 1);
    else if (value == &ta)
        atomic_fetch_add(&calls_ta, 1);
    else if (value == &tb)
        atomic_fetch_add(&calls_tb, 1);
    else
        atomic_fetch_add(&stray, 1);
}

static void first(void *arg)
{
    ABT_self_set_specific(k1, arg);
}

static void second(void *arg)
{
    seen1 = seen2 = (void *)&seen1;
    ABT_self_get_specific(k1, &seen1);
    ABT_self_get_specific(k2, &seen2);
    ABT_self_set_specific(k2, arg);
    ABT_self_get_xstream_rank(&seen_rank);
}

static int total(void)
{
    return atomic_load(&calls_a) + atomic_load(&calls_b) + atomic_load(&calls_ta) +
           atomic_load(&calls_tb) + atomic_load(&stray);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor, &k1));
    CHECK_OK(ABT_key_create(dtor, &k2));
    ABT_xstream es0, es1;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool0, first, &a, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_thread_revive(pool1, second, &b, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK(seen1 == &a);
    CHECK(seen2 == NULL);
    CHECK_EQ(seen_rank, 1);
    CHECK_EQ(total(), 0);
    void *v = NULL;
    CHECK_OK(ABT_thread_get_specific(t, k2, &v));
    CHECK(v == &b);
    /* revive again: both values still there, no destructor yet */
    CHECK_OK(ABT_thread_revive(pool0, second, &b, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK(seen1 == &a);
    CHECK(seen2 == &b);
    CHECK_EQ(total(), 0);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&calls_a), 1);
    CHECK_EQ(atomic_load(&calls_b), 1);

    ABT_task k;
    seen_rank = -1;
    CHECK_OK(ABT_task_create(pool1, first, &ta, &k));
    CHECK_OK(ABT_task_join(k));
    CHECK_OK(ABT_task_revive(pool1, second, &tb, &k));
    CHECK_OK(ABT_task_join(k));
    CHECK(seen1 == &ta);
    CHECK(seen2 == NULL);
    CHECK_EQ(seen_rank, 1);
    CHECK_EQ(total(), 2);
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(atomic_load(&calls_ta), 1);
    CHECK_EQ(atomic_load(&calls_tb), 1);

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_key_free(&k1));
    CHECK_OK(ABT_key_free(&k2));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(total(), 4);
    BB_TEST_END();
}
