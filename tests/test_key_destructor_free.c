/* Key destructors run when a named unit is freed, not when it terminates:
 * after a ULT (on another ES) or a tasklet has terminated and been joined no
 * destructor has run; ABT_thread_free / ABT_task_free / ABT_thread_free_many
 * then call each key's destructor exactly once per non-NULL value, with the
 * value as argument, in the freeing thread. A value set back to NULL and a
 * key whose destructor is NULL cause no call. Freeing without a prior join
 * works the same. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

#define NV 16
static int vals[NV];               /* &vals[i] are the values */
static atomic_int calls_a[NV], calls_b[NV], stray;
static pthread_t freer;
static atomic_int wrong_thread;
static ABT_key ka, kb, knull, kzero;

static void count(atomic_int *calls, void *value)
{
    int *p = value;
    if (p >= vals && p < vals + NV)
        atomic_fetch_add(&calls[p - vals], 1);
    else
        atomic_fetch_add(&stray, 1);
    if (!pthread_equal(pthread_self(), freer))
        atomic_fetch_add(&wrong_thread, 1);
}

static void dtor_a(void *value) { count(calls_a, value); }
static void dtor_b(void *value) { count(calls_b, value); }

/* arg = i: sets ka = &vals[i], kb = &vals[i + 1], knull = &vals[i + 2],
 * kzero = &vals[i + 3] and then back to NULL. */
static void setter(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_self_set_specific(ka, &vals[i]);
    ABT_self_set_specific(kb, &vals[i + 1]);
    ABT_self_set_specific(knull, &vals[i + 2]);
    ABT_self_set_specific(kzero, &vals[i + 3]);
    ABT_self_set_specific(kzero, NULL);
}

static int total(void)
{
    int n = atomic_load(&stray);
    for (int i = 0; i < NV; i++)
        n += atomic_load(&calls_a[i]) + atomic_load(&calls_b[i]);
    return n;
}

/* After freeing the unit made by setter(i): a called once with vals[i],
 * b once with vals[i + 1], nothing else. */
static void check_freed(int i)
{
    CHECK_EQ(atomic_load(&calls_a[i]), 1);
    CHECK_EQ(atomic_load(&calls_b[i + 1]), 1);
    CHECK_EQ(atomic_load(&calls_a[i + 2]) + atomic_load(&calls_b[i + 2]), 0);
    CHECK_EQ(atomic_load(&calls_a[i + 3]) + atomic_load(&calls_b[i + 3]), 0);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    freer = pthread_self();
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor_a, &ka));
    CHECK_OK(ABT_key_create(dtor_b, &kb));
    CHECK_OK(ABT_key_create(NULL, &knull));
    CHECK_OK(ABT_key_create(dtor_a, &kzero));
    ABT_xstream es0, es1;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));

    /* A ULT on ES 1: terminated and joined, not freed -> nothing. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool1, setter, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(t, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
    usleep(20000);
    CHECK_EQ(total(), 0);
    CHECK_OK(ABT_thread_free(&t));
    CHECK(t == ABT_THREAD_NULL);
    check_freed(0);
    CHECK_EQ(total(), 2);

    /* A tasklet on ES 1. */
    ABT_task k;
    CHECK_OK(ABT_task_create(pool1, setter, (void *)(intptr_t)4, &k));
    CHECK_OK(ABT_task_join(k));
    usleep(20000);
    CHECK_EQ(total(), 2);
    CHECK_OK(ABT_task_free(&k));
    check_freed(4);
    CHECK_EQ(total(), 4);

    /* A ULT on ES 0 freed without a join (the free joins). */
    CHECK_OK(ABT_thread_create(pool0, setter, (void *)(intptr_t)8, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    check_freed(8);
    CHECK_EQ(total(), 6);

    /* ABT_thread_free_many on a ULT and a tasklet. */
    ABT_thread two[2];
    CHECK_OK(ABT_thread_create(pool1, setter, (void *)(intptr_t)12, ABT_THREAD_ATTR_NULL, &two[0]));
    CHECK_OK(ABT_task_create(pool0, setter, (void *)(intptr_t)12, &two[1]));
    CHECK_OK(ABT_thread_join_many(2, two));
    CHECK_EQ(total(), 6);
    CHECK_OK(ABT_thread_free_many(2, two));
    CHECK_EQ(atomic_load(&calls_a[12]), 2);
    CHECK_EQ(atomic_load(&calls_b[13]), 2);
    CHECK_EQ(total(), 10);

    CHECK_EQ(atomic_load(&stray), 0);
    CHECK_EQ(atomic_load(&wrong_thread), 0);
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_key_free(&ka));
    CHECK_OK(ABT_key_free(&kb));
    CHECK_OK(ABT_key_free(&knull));
    CHECK_OK(ABT_key_free(&kzero));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(total(), 10);
    BB_TEST_END();
}
