/* Regression (sync review): cancelling one of two ULTs queued on a mutex
 * must not strand the other. The primary ULT holds the mutex; ULTs A and B
 * queue on it (both BLOCKED); A is cancelled; the primary unlocks and then
 * locks/unlocks it a few more times (fast paths). B must eventually get the
 * mutex and finish (joined; a hang is caught by the watchdog). bobbin lets a
 * cancelled ULT finish the wait it is in (A may get the mutex, then is
 * cancelled at its next yield or runs on), so nothing is assumed about A
 * except that it ends. Checked with A and B in the primary ES's pool (with
 * and without yields between the primary's unlock and relock) and in a
 * second ES's pool. The mutex ends free with nobody waiting. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_mutex mtx;
static atomic_int a_got, b_got;
static int b_ret;

static void fa(void *arg)
{
    (void)arg;
    if (ABT_mutex_lock(mtx) == ABT_SUCCESS) {
        atomic_store(&a_got, 1);
        ABT_mutex_unlock(mtx); /* no yield while holding it: a cancel there would keep it */
    }
}

static void fb(void *arg)
{
    (void)arg;
    b_ret = ABT_mutex_lock(mtx);
    atomic_store(&b_got, 1);
    ABT_mutex_unlock(mtx);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (;;) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_BLOCKED || st == ABT_THREAD_STATE_TERMINATED)
            break;
        ABT_thread_yield();
        usleep(50);
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
}

static void run_case(ABT_pool pool, int yields, const char *what)
{
    printf("%s\n", what);
    atomic_store(&a_got, 0);
    atomic_store(&b_got, 0);
    b_ret = -1;
    CHECK_OK(ABT_mutex_lock(mtx));
    ABT_thread a, b;
    CHECK_OK(ABT_thread_create(pool, fa, NULL, ABT_THREAD_ATTR_NULL, &a));
    wait_blocked(a);
    CHECK_OK(ABT_thread_create(pool, fb, NULL, ABT_THREAD_ATTR_NULL, &b));
    wait_blocked(b);
    CHECK_EQ(atomic_load(&b_got), 0);

    CHECK_OK(ABT_thread_cancel(a));
    CHECK_OK(ABT_mutex_unlock(mtx));
    for (int round = 0; round < 5; round++) {
        for (int i = 0; i < yields; i++)
            ABT_thread_yield();
        CHECK_OK(ABT_mutex_lock(mtx));
        CHECK_OK(ABT_mutex_unlock(mtx));
    }

    CHECK_OK(ABT_thread_free(&b)); /* B must get the mutex: no hang */
    CHECK_EQ(atomic_load(&b_got), 1);
    CHECK_EQ(b_ret, ABT_SUCCESS);
    CHECK_OK(ABT_thread_free(&a));
    printf("  A got the mutex: %d\n", atomic_load(&a_got));

    /* Free, and nobody waits: trylock succeeds and the mutex can be freed. */
    CHECK_OK(ABT_mutex_trylock(mtx));
    CHECK_OK(ABT_mutex_unlock(mtx));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool0));

    CHECK_OK(ABT_mutex_create(&mtx));
    run_case(pool0, 5, "primary ES, yields between unlock and relock");
    run_case(pool0, 0, "primary ES, relock at once");
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK(mtx == ABT_MUTEX_NULL);

    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_mutex_create(&mtx));
    run_case(pool1, 5, "second ES, yields between unlock and relock");
    run_case(pool1, 0, "second ES, relock at once");
    CHECK_OK(ABT_mutex_free(&mtx));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
