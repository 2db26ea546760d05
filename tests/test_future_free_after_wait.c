/* A waiter may free an ABT_future as soon as its wait returns: the unit
 * that set the last compartment (and ran the callback) is done with the
 * object by then. Stressed in a loop with the waiter (a ULT, which frees it)
 * and the setters on different ESs, with and without a callback. Meant to be
 * run under the AddressSanitizer build too. */
#include "bb_test.h"
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#define ITERS 1000
#define N 2

static ABT_future cur;
static atomic_int arrived, cb_calls, bad;

static void delay(int n)
{
    for (volatile int i = 0; i < n * 50; i++) {
    }
}

static void callback(void **values)
{
    if ((intptr_t)values[0] != 1 || (intptr_t)values[1] != 2)
        atomic_fetch_add(&bad, 1);
    atomic_fetch_add(&cb_calls, 1);
}

static void waiter_frees(void *arg)
{
    int d = (int)(intptr_t)arg;
    ABT_future f = cur;
    atomic_store(&arrived, 1);
    delay(d % 5);
    CHECK_OK(ABT_future_wait(f));
    CHECK_OK(ABT_future_free(&f));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));

    for (int i = 0; i < 2 * ITERS; i++) {
        CHECK_OK(ABT_future_create(N, i % 2 ? callback : NULL, &cur));
        atomic_store(&arrived, 0);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool1, waiter_frees, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_future_set(cur, (void *)(intptr_t)1));
        while (!atomic_load(&arrived))
            sched_yield(); /* the waiter's ES may need this core */
        delay(i % 7);
        CHECK_OK(ABT_future_set(cur, (void *)(intptr_t)2));
        CHECK_OK(ABT_thread_free(&t));
    }
    CHECK_EQ(atomic_load(&cb_calls), ITERS);
    CHECK_EQ(atomic_load(&bad), 0);

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
