/* A waiter may free an ABT_eventual as soon as its wait returns: the setter
 * is done with the object (lock included) by then. Stressed in a loop across
 * two ESs, with the setter and the freeing waiter on different ESs (waiter a
 * ULT, the main ULT or an external pthread), and with the eventual's memory
 * (ABT_EVENTUAL_INITIALIZER) on the waiting ULT's stack, which the waiter
 * scribbles over right after the wait and checks that nobody wrote to it
 * afterwards. Meant to be run under the AddressSanitizer build too. */
#include "bb_test.h"
#include <sched.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define ITERS 1000

static ABT_eventual cur;
static _Atomic(ABT_eventual) published;
static atomic_int bad, late_writes, arrived;
static int iter;
/* Runs of stack_waiter begun and ended: after each free exactly one per
 * iteration. A second run of a reused descriptor, or a free that returns
 * before the function ended, would break that (and could leave the main ULT
 * waiting for a publish that came too early: the one hang seen in CI). */
static atomic_int waiter_runs, waiter_ends;

static void delay(int n)
{
    for (volatile int i = 0; i < n * 50; i++) {
    }
}

static void check_and_free(ABT_eventual e, void *v, int expect)
{
    if (!v || *(int *)v != expect)
        atomic_fetch_add(&bad, 1);
    CHECK_OK(ABT_eventual_free(&e));
}

/* The waiter frees it. */
static void waiter_frees(void *arg)
{
    (void)arg;
    ABT_eventual e = cur;
    int expect = iter;
    atomic_store(&arrived, 1);
    delay(iter % 5);
    void *v = NULL;
    CHECK_OK(ABT_eventual_wait(e, &v));
    check_and_free(e, v, expect);
}

static void *ext_waiter_frees(void *arg)
{
    waiter_frees(arg);
    return NULL;
}

static void setter(void *arg)
{
    (void)arg;
    int x = iter;
    /* Set about when the waiter gets into its wait: sometimes before,
     * sometimes while it is blocked. */
    while (!atomic_load(&arrived))
        sched_yield(); /* the waiter's ES may need this core */
    delay(iter % 7);
    CHECK_OK(ABT_eventual_set(cur, &x, sizeof(x)));
}

/* The eventual lives on this ULT's stack. */
static void stack_waiter(void *arg)
{
    (void)arg;
    atomic_fetch_add(&waiter_runs, 1);
    ABT_eventual_memory mem = ABT_EVENTUAL_INITIALIZER;
    ABT_eventual e = ABT_EVENTUAL_MEMORY_GET_HANDLE(&mem);
    atomic_store(&published, e);
    CHECK_OK(ABT_eventual_wait(e, NULL));
    memset(&mem, 0xA5, sizeof(mem));
    delay(20);
    const unsigned char *p = (const unsigned char *)&mem;
    for (size_t i = 0; i < sizeof(mem); i++)
        if (p[i] != 0xA5) {
            atomic_fetch_add(&late_writes, 1);
            break;
        }
    atomic_fetch_add(&waiter_ends, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es0, es1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));

    /* A ULT on ES1 waits and frees; the main ULT (ES0) sets. */
    for (iter = 0; iter < ITERS; iter++) {
        BB_TEST_AT(1, iter);
        CHECK_OK(ABT_eventual_create(sizeof(int), &cur));
        atomic_store(&arrived, 0);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool1, waiter_frees, NULL, ABT_THREAD_ATTR_NULL, &t));
        setter(NULL);
        CHECK_OK(ABT_thread_free(&t));
    }

    /* The main ULT waits and frees; a ULT on ES1 sets. */
    for (iter = 0; iter < ITERS; iter++) {
        BB_TEST_AT(2, iter);
        CHECK_OK(ABT_eventual_create(sizeof(int), &cur));
        atomic_store(&arrived, 0);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool1, setter, NULL, ABT_THREAD_ATTR_NULL, &t));
        waiter_frees(NULL);
        CHECK_OK(ABT_thread_free(&t));
    }

    /* An external thread waits and frees; a ULT on ES1 sets. */
    for (iter = 0; iter < ITERS / 4; iter++) {
        BB_TEST_AT(3, iter);
        CHECK_OK(ABT_eventual_create(sizeof(int), &cur));
        atomic_store(&arrived, 0);
        pthread_t th;
        CHECK_EQ(pthread_create(&th, NULL, ext_waiter_frees, NULL), 0);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool1, setter, NULL, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(pthread_join(th, NULL), 0);
    }

    /* Stack memory on ES1's ULT; the main ULT sets. Stages 4-6 tell a hang
     * before, in and after the set. */
    for (iter = 0; iter < ITERS; iter++) {
        atomic_store(&published, ABT_EVENTUAL_NULL);
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pool1, stack_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
        BB_TEST_AT(4, iter);
        ABT_eventual e;
        while ((e = atomic_load(&published)) == ABT_EVENTUAL_NULL)
            sched_yield();
        delay(iter % 5);
        BB_TEST_AT(5, iter);
        CHECK_OK(ABT_eventual_set(e, NULL, 0));
        BB_TEST_AT(6, iter);
        CHECK_OK(ABT_thread_free(&t));
        if (atomic_load(&waiter_runs) != iter + 1 || atomic_load(&waiter_ends) != iter + 1) {
            CHECK_EQ(atomic_load(&waiter_runs), iter + 1); /* says which, once */
            CHECK_EQ(atomic_load(&waiter_ends), iter + 1);
            break;
        }
    }

    CHECK_EQ(atomic_load(&bad), 0);
    CHECK_EQ(atomic_load(&late_writes), 0);
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
