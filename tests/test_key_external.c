/* Keys from an external thread (a pthread that is not an ES):
 * ABT_key_set/get and ABT_self_set/get_specific -> ABT_ERR_INV_XSTREAM (a NULL
 * key -> ABT_ERR_INV_KEY first), *value left alone; ABT_thread_set/
 * get_specific work on any unit: set on a ULT that has not started yet, the
 * ULT reads it; read the primary ULT's value; a NULL thread ->
 * ABT_ERR_INV_THREAD, a NULL key -> ABT_ERR_INV_KEY. The destructor of a value
 * set from outside runs once when the ULT is freed. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>

static ABT_key key;
static ABT_thread target, primary;
static int a, p;
static atomic_int calls_a, stray;
static void *seen = &stray;

static void dtor(void *value)
{
    if (value == &a)
        atomic_fetch_add(&calls_a, 1);
    else
        atomic_fetch_add(&stray, 1);
}

static void reader(void *arg)
{
    (void)arg;
    ABT_self_get_specific(key, &seen);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    void *v = &stray;
    CHECK_ERR(ABT_key_set(key, &a), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_key_get(key, &v), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_set_specific(key, &a), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_self_get_specific(key, &v), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_key_set(ABT_KEY_NULL, &a), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_key_get(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_self_set_specific(ABT_KEY_NULL, &a), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_self_get_specific(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK(v == &stray);

    CHECK_ERR(ABT_thread_set_specific(ABT_THREAD_NULL, key, &a), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_specific(ABT_THREAD_NULL, key, &v), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_specific(target, ABT_KEY_NULL, &a), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_thread_get_specific(target, ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK(v == &stray);

    CHECK_OK(ABT_thread_get_specific(target, key, &v));
    CHECK(v == NULL);
    CHECK_OK(ABT_thread_set_specific(target, key, &a));
    CHECK_OK(ABT_thread_get_specific(target, key, &v));
    CHECK(v == &a);
    CHECK_OK(ABT_thread_get_specific(primary, key, &v));
    CHECK(v == &p);
    /* Also creating and freeing a key from outside. */
    ABT_key k2;
    CHECK_OK(ABT_key_create(NULL, &k2));
    CHECK_OK(ABT_thread_get_specific(target, k2, &v));
    CHECK(v == NULL);
    CHECK_OK(ABT_key_free(&k2));
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(dtor, &key));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_self_get_thread(&primary));
    CHECK_OK(ABT_self_set_specific(key, &p));
    /* Not started: the primary ULT does not yield while the pthread runs. */
    CHECK_OK(ABT_thread_create(pool, reader, NULL, ABT_THREAD_ATTR_NULL, &target));

    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);

    CHECK_OK(ABT_thread_join(target));
    CHECK(seen == &a);
    CHECK_EQ(atomic_load(&calls_a), 0);
    CHECK_OK(ABT_thread_free(&target));
    CHECK_EQ(atomic_load(&calls_a), 1);
    CHECK_OK(ABT_self_set_specific(key, NULL));
    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&stray), 0);
    BB_TEST_END();
}
