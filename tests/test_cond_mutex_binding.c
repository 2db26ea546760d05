/* While units wait on a cond with mutex M1, a wait or timedwait with another
 * mutex M2 returns ABT_ERR_INV_MUTEX at once with M2 still held by the
 * caller; a second waiter with M1 is fine. The binding is forgotten as soon
 * as nobody waits any more: after a signal woke the last waiter, after a
 * broadcast, and after the last waiter timed out, a wait with M2 is
 * accepted (and then M1 is the one refused). */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex m1, m2;
static atomic_int done;
static int ret[4];

static void waiter(void *arg)
{
    long i = (long)arg;
    ABT_mutex_lock(m1);
    ret[i] = ABT_cond_wait(cond, m1);
    ABT_mutex_unlock(m1);
    atomic_fetch_add(&done, 1);
}

static void waiter_m2(void *arg)
{
    long i = (long)arg;
    ABT_mutex_lock(m2);
    ret[i] = ABT_cond_wait(cond, m2);
    ABT_mutex_unlock(m2);
}

static struct timespec timed_deadline;
static void timed_waiter(void *arg)
{
    long i = (long)arg;
    ABT_mutex_lock(m1);
    ret[i] = ABT_cond_timedwait(cond, m1, &timed_deadline);
    ABT_mutex_unlock(m1);
    atomic_fetch_add(&done, 1);
}

static void wait_blocked(ABT_thread t)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_TERMINATED) {
            CHECK(!"waiter ended before it was seen blocked");
            return;
        }
        usleep(100);
    }
}

/* A wait with m2 is refused while m1 is bound, m2 staying held. */
static void check_refused(void)
{
    struct timespec far = bb_test_realtime_in_ms(30000);
    CHECK_OK(ABT_mutex_lock(m2));
    CHECK_ERR(ABT_cond_wait(cond, m2), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(m2), ABT_ERR_MUTEX_LOCKED);
    CHECK_ERR(ABT_cond_timedwait(cond, m2, &far), ABT_ERR_INV_MUTEX);
    CHECK_OK(ABT_mutex_unlock(m2)); /* still ours */
}

/* A wait with m2 is accepted (it times out). */
static void check_accepted(void)
{
    struct timespec past = bb_test_realtime_in_ms(-1000);
    CHECK_OK(ABT_mutex_lock(m2));
    CHECK_ERR(ABT_cond_timedwait(cond, m2, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(m2));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_cond_create(&cond));
    CHECK_OK(ABT_mutex_create(&m1));
    CHECK_OK(ABT_mutex_create(&m2));

    /* Two waiters with m1; m2 refused; one signal leaves one waiter (still
     * bound), the second signal empties the queue (forgotten). */
    ABT_thread a, b;
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)0, ABT_THREAD_ATTR_NULL, &a));
    wait_blocked(a);
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)1, ABT_THREAD_ATTR_NULL, &b));
    wait_blocked(b);
    check_refused();
    CHECK_OK(ABT_cond_signal(cond));
    while (atomic_load(&done) < 1)
        usleep(100);
    check_refused();
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&b));
    CHECK_EQ(ret[0], ABT_SUCCESS);
    CHECK_EQ(ret[1], ABT_SUCCESS);
    check_accepted();

    /* Broadcast forgets the binding. */
    atomic_store(&done, 0);
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)0, ABT_THREAD_ATTR_NULL, &a));
    wait_blocked(a);
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)1, ABT_THREAD_ATTR_NULL, &b));
    wait_blocked(b);
    check_refused();
    CHECK_OK(ABT_cond_broadcast(cond));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&b));
    check_accepted();

    /* The last waiter timing out forgets the binding. */
    timed_deadline = bb_test_realtime_in_ms(1000);
    CHECK_OK(ABT_thread_create(pool, timed_waiter, (void *)2, ABT_THREAD_ATTR_NULL, &a));
    wait_blocked(a);
    check_refused();
    CHECK_OK(ABT_thread_free(&a));
    CHECK_EQ(ret[2], ABT_ERR_COND_TIMEDOUT);
    check_accepted();

    /* Now m2 can be bound in turn, and then m1 is the one refused. */
    CHECK_OK(ABT_thread_create(pool, waiter_m2, (void *)3, ABT_THREAD_ATTR_NULL, &a));
    wait_blocked(a);
    struct timespec far = bb_test_realtime_in_ms(30000);
    CHECK_OK(ABT_mutex_lock(m1));
    CHECK_ERR(ABT_cond_wait(cond, m1), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(cond, m1, &far), ABT_ERR_INV_MUTEX);
    CHECK_OK(ABT_mutex_unlock(m1));
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_thread_free(&a));
    CHECK_EQ(ret[3], ABT_SUCCESS);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&m1));
    CHECK_OK(ABT_mutex_free(&m2));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
