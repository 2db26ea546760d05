/* ABT_thread_set_specific / ABT_thread_get_specific act on another unit's
 * values: set on a ULT that has not started yet, the ULT reads the value with
 * ABT_self_get_specific when it runs; what a ULT set itself is read through
 * its handle after it terminated; set on a terminated ULT, it is read back
 * and destroyed once when the ULT is freed (the overwritten value is not).
 * ABT_task_set/get_specific do the same on a tasklet that has not run yet.
 * Set on a ULT running on another ES (whose value for the key already
 * exists), the ULT sees the new value. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_key k1, k2;
static int a, b, c, d, e;
static atomic_int calls_a, calls_b, calls_c, calls_d, calls_e, stray, release;
static void *seen_by_ult = &stray, *seen_by_task = &stray;

static void dtor(void *value)
{
    if (value == &a)
        atomic_fetch_add(&calls_a, 1);
    else if (value == &b)
        atomic_fetch_add(&calls_b, 1);
    else if (value == &c)
        atomic_fetch_add(&calls_c, 1);
    else if (value == &d)
        atomic_fetch_add(&calls_d, 1);
    else if (value == &e)
        atomic_fetch_add(&calls_e, 1);
    else
        atomic_fetch_add(&stray, 1);
}

static void reader(void *arg)
{
    ABT_self_get_specific(k1, &seen_by_ult);
    ABT_self_set_specific(k2, arg);
}

static void task_reader(void *arg)
{
    (void)arg;
    ABT_self_get_specific(k1, &seen_by_task);
}

/* Waits until its k1 value becomes &e (set from the primary ULT). */
static void poller(void *arg)
{
    (void)arg;
    ABT_self_set_specific(k1, NULL);
    atomic_store(&release, 1);
    void *v = NULL;
    while (v != &e) {
        ABT_self_get_specific(k1, &v);
        ABT_thread_yield();
    }
}

static int total(void)
{
    return atomic_load(&calls_a) + atomic_load(&calls_b) + atomic_load(&calls_c) +
           atomic_load(&calls_d) + atomic_load(&calls_e) + atomic_load(&stray);
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

    /* Not started yet: only ES 0 exists and the primary ULT does not yield. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool0, reader, &b, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_READY);
    void *v = &stray;
    CHECK_OK(ABT_thread_get_specific(t, k1, &v));
    CHECK(v == NULL);
    CHECK_OK(ABT_thread_set_specific(t, k1, &a));
    CHECK_OK(ABT_thread_get_specific(t, k1, &v));
    CHECK(v == &a);
    CHECK_OK(ABT_thread_join(t));
    CHECK(seen_by_ult == &a);
    /* What it set itself, read through the handle. */
    CHECK_OK(ABT_thread_get_specific(t, k2, &v));
    CHECK(v == &b);
    /* Terminated: overwrite k1 (&a is then never destroyed), read back. */
    CHECK_OK(ABT_thread_set_specific(t, k1, &c));
    CHECK_OK(ABT_thread_get_specific(t, k1, &v));
    CHECK(v == &c);
    CHECK_EQ(total(), 0);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&calls_a), 0);
    CHECK_EQ(atomic_load(&calls_b), 1);
    CHECK_EQ(atomic_load(&calls_c), 1);

    /* A tasklet that has not run yet. */
    ABT_task k;
    CHECK_OK(ABT_task_create(pool0, task_reader, NULL, &k));
    CHECK_OK(ABT_task_set_specific(k, k1, &d));
    CHECK_OK(ABT_task_get_specific(k, k1, &v));
    CHECK(v == &d);
    CHECK_OK(ABT_task_join(k));
    CHECK(seen_by_task == &d);
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(atomic_load(&calls_d), 1);

    /* A ULT running on ES 1. */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_thread_create(pool1, poller, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&release))
        usleep(100);
    CHECK_OK(ABT_thread_set_specific(t, k1, &e));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&calls_e), 1);

    CHECK_EQ(atomic_load(&stray), 0);
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_key_free(&k1));
    CHECK_OK(ABT_key_free(&k2));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(total(), 4);
    BB_TEST_END();
}
