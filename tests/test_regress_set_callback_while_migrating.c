/* Regression (audit, ThreadSanitizer): ABT_thread_set_callback on a ULT
 * that is migrating itself on another ES. The callback and its argument
 * were two plain stores, read as two plain loads where the move completes,
 * so the move could call the new function with the old argument. Here an
 * external thread keeps switching between two (function, argument) pairs
 * while the ULT bounces between the pools of two ESs; each function checks
 * that it got its own argument. Under TSan any report fails the test. */
#include "bb_test.h"

#include <pthread.h>

static int tag_a, tag_b;
static long calls, torn;
static int done;
static ABT_thread ult;
static ABT_pool pools[2];

static void cb_a(ABT_thread t, void *arg)
{
    (void)t;
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    if (arg != &tag_a)
        __atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);
}

static void cb_b(ABT_thread t, void *arg)
{
    (void)t;
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    if (arg != &tag_b)
        __atomic_fetch_add(&torn, 1, __ATOMIC_RELAXED);
}

static void bouncer(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_OK(ABT_thread_self(&self));
    for (long i = 0; i < BB_TEST_SIZE(200000, 5000); i++) {
        CHECK_OK(ABT_thread_migrate_to_pool(self, pools[(i + 1) & 1]));
        CHECK_OK(ABT_thread_yield()); /* the move happens here */
    }
    __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

static void *setter(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
        CHECK_OK(ABT_thread_set_callback(ult, cb_a, &tag_a));
        CHECK_OK(ABT_thread_set_callback(ult, cb_b, &tag_b));
    }
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(120);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream xs[2];
    for (int i = 0; i < 2; i++) {
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[i]));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pools[i], ABT_SCHED_CONFIG_NULL,
                                          &xs[i]));
    }
    CHECK_OK(ABT_thread_create(pools[0], bouncer, NULL, ABT_THREAD_ATTR_NULL, &ult));
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, setter, NULL), 0);
    CHECK_OK(ABT_thread_join(ult));
    CHECK_EQ(pthread_join(t, NULL), 0);
    CHECK_OK(ABT_thread_free(&ult));
    CHECK(__atomic_load_n(&calls, __ATOMIC_RELAXED) > 0);
    CHECK_EQ(__atomic_load_n(&torn, __ATOMIC_RELAXED), 0);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&xs[i]));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_pool_free(&pools[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
