/* A value set for a key that was then freed keeps its destructor even when
 * a new key is created afterwards (possibly in the freed key's internal slot)
 * and the same unit sets the new key: freeing the unit calls the old
 * destructor on the old value and the new destructor on the new value, once
 * each. Checked on a ULT (new key set by the ULT itself), a tasklet (new key
 * set through ABT_task_set_specific), a ULT whose new key is set to NULL, and
 * the primary ULT (inside ABT_finalize). */
#include "bb_test.h"
#include <stdatomic.h>

static int old_vals[4], new_vals[4];
static atomic_int old_calls[4], new_calls[4], stray;
static ABT_key old_key, new_key;
static atomic_int phase;

static void count(int *base, atomic_int *calls, void *value)
{
    int *p = value;
    if (p >= base && p < base + 4)
        atomic_fetch_add(&calls[p - base], 1);
    else
        atomic_fetch_add(&stray, 1);
}

static void old_dtor(void *value) { count(old_vals, old_calls, value); }
static void new_dtor(void *value) { count(new_vals, new_calls, value); }

/* arg: index i. Sets old_key, waits for the key swap, then sets new_key. */
static void ult_fn(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_self_set_specific(old_key, &old_vals[i]);
    atomic_fetch_add(&phase, 1);
    while (atomic_load(&phase) < 100)
        ABT_thread_yield();
    ABT_self_set_specific(new_key, i == 2 ? NULL : (void *)&new_vals[i]);
}

static void task_fn(void *arg)
{
    ABT_self_set_specific(old_key, arg);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_key_create(old_dtor, &old_key));

    ABT_thread t0, t2;
    ABT_task k1;
    CHECK_OK(ABT_thread_create(pool1, ult_fn, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &t0));
    CHECK_OK(ABT_thread_create(pool1, ult_fn, (void *)(intptr_t)2, ABT_THREAD_ATTR_NULL, &t2));
    CHECK_OK(ABT_task_create(pool1, task_fn, &old_vals[1], &k1));
    CHECK_OK(ABT_task_join(k1));
    CHECK_OK(ABT_self_set_specific(old_key, &old_vals[3]));
    while (atomic_load(&phase) < 2)
        usleep(100);

    CHECK_OK(ABT_key_free(&old_key));
    CHECK_OK(ABT_key_create(new_dtor, &new_key));
    atomic_store(&phase, 100);
    CHECK_OK(ABT_task_set_specific(k1, new_key, &new_vals[1]));
    CHECK_OK(ABT_self_set_specific(new_key, &new_vals[3]));

    CHECK_OK(ABT_thread_free(&t0));
    CHECK_EQ(atomic_load(&old_calls[0]), 1);
    CHECK_EQ(atomic_load(&new_calls[0]), 1);
    CHECK_OK(ABT_task_free(&k1));
    CHECK_EQ(atomic_load(&old_calls[1]), 1);
    CHECK_EQ(atomic_load(&new_calls[1]), 1);
    CHECK_OK(ABT_thread_free(&t2));
    CHECK_EQ(atomic_load(&old_calls[2]), 1);
    CHECK_EQ(atomic_load(&new_calls[2]), 0);

    CHECK_OK(ABT_key_free(&new_key));
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_EQ(atomic_load(&old_calls[3]), 0);
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&old_calls[3]), 1);
    CHECK_EQ(atomic_load(&new_calls[3]), 1);
    CHECK_EQ(atomic_load(&stray), 0);
    BB_TEST_END();
}
