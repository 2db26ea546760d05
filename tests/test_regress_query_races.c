/* Regression (audit, ThreadSanitizer): queries from another thread on a
 * live ULT while it changes.
 *  - ABT_thread_get_specific from an external thread reads values that the
 *    ULT keeps re-setting, each pointing to an object prepared just before:
 *    a re-set must publish the object (it was a relaxed store, and TSan saw
 *    the reader's dereference race with the preparation);
 *  - ABT_thread_get_arg, _get_thread_func, _get_last_xstream and
 *    ABT_info_print_thread from an external thread while the ULT is revived
 *    again and again and sets its own argument (plain stores before);
 *  - ABT_info_print_thread_stacks_in_pool on another ES's private pool is
 *    refused (ABT_ERR_INV_POOL_ACCESS): its home pushes and pops it without
 *    a lock, so the walk followed units freed meanwhile.
 * Under TSan any report fails the test; elsewhere it checks the values. */
#include "bb_test.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    long x;
} obj_t;

static ABT_key key;
static ABT_thread ult;
static int done;
#define NUM_SETS 20000
static obj_t objs[NUM_SETS]; /* one per set: never written once published */

static void resetter(void *arg)
{
    (void)arg;
    for (long i = 0; i < BB_TEST_SIZE(NUM_SETS, NUM_SETS / 10); i++) {
        obj_t *o = &objs[i];
        o->x = i + 1; /* prepared, then published */
        CHECK_OK(ABT_key_set(key, o));
        if (i % 64 == 0)
            CHECK_OK(ABT_thread_yield());
    }
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

static void *read_specific(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        void *v = NULL;
        int err = ABT_thread_get_specific(ult, key, &v);
        if (err != ABT_SUCCESS) {
            CHECK_OK(err);
            break;
        }
        if (v)
            CHECK(((obj_t *)v)->x > 0);
    }
    return NULL;
}

static void revived_body(void *arg)
{
    CHECK_OK(ABT_key_set(key, arg));
    CHECK_OK(ABT_self_set_arg((void *)1));
}

static void *query(void *arg)
{
    FILE *fp = fopen("/dev/null", "w");
    CHECK(fp != NULL);
    (void)arg;
    while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        void *a;
        void (*fn)(void *);
        ABT_xstream x;
        CHECK_OK(ABT_thread_get_arg(ult, &a));
        CHECK_OK(ABT_thread_get_thread_func(ult, &fn));
        CHECK(fn == revived_body);
        CHECK_OK(ABT_thread_get_last_xstream(ult, &x));
        CHECK_OK(ABT_info_print_thread(fp, ult));
    }
    fclose(fp);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(NULL, &key));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_TRUE, &pool));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));

    pthread_t th;
    if (ABT_thread_create_on_xstream(es, resetter, NULL, ABT_THREAD_ATTR_NULL, &ult) != ABT_SUCCESS)
        BB_FAIL_AT("%s", "cannot create the ULT");
    CHECK(pthread_create(&th, NULL, read_specific, NULL) == 0);
    CHECK(pthread_join(th, NULL) == 0);
    CHECK_OK(ABT_thread_free(&ult));

    __atomic_store_n(&done, 0, __ATOMIC_RELAXED);
    CHECK_OK(ABT_thread_create_on_xstream(es, revived_body, (void *)2, ABT_THREAD_ATTR_NULL,
                                          &ult));
    CHECK(pthread_create(&th, NULL, query, NULL) == 0);
    for (long i = 0; i < BB_TEST_SIZE(2000, 200); i++) {
        CHECK_OK(ABT_thread_join(ult));
        CHECK_OK(ABT_thread_revive(pool, revived_body, (void *)(intptr_t)(i + 3), &ult));
    }
    CHECK_OK(ABT_thread_join(ult));
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
    CHECK(pthread_join(th, NULL) == 0);
    CHECK_OK(ABT_thread_free(&ult));

    ABT_pool priv;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    ABT_xstream home;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &home));
    FILE *fp = fopen("/dev/null", "w");
    CHECK(fp != NULL);
    CHECK_ERR(ABT_info_print_thread_stacks_in_pool(fp, priv), ABT_ERR_INV_POOL_ACCESS);
    fclose(fp);

    CHECK_OK(ABT_xstream_free(&home));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
