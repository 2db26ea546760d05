/* ABT_cond_wait / timedwait with a recursive mutex locked several times:
 * the wait releases every level (another ULT can lock the mutex meanwhile)
 * and restores them all on return (the waiter needs as many unlocks as
 * before, and one more is ABT_ERR_MUTEX). Checked for a signalled wait and
 * for a timedwait that times out. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex rm;
static atomic_int waiting;
static int r[8];

static void waiter(void *arg)
{
    (void)arg;
    ABT_mutex_lock(rm);
    ABT_mutex_lock(rm);
    atomic_store(&waiting, 1);
    r[0] = ABT_cond_wait(cond, rm);
    r[1] = ABT_mutex_unlock(rm);
    r[2] = ABT_mutex_unlock(rm);
    r[3] = ABT_mutex_unlock(rm); /* one too many */
}

static struct timespec deadline;
static void timed_waiter(void *arg)
{
    (void)arg;
    ABT_mutex_lock(rm);
    ABT_mutex_trylock(rm);
    ABT_mutex_lock(rm);
    r[4] = ABT_cond_timedwait(cond, rm, &deadline);
    r[5] = ABT_mutex_unlock(rm);
    r[6] = ABT_mutex_unlock(rm);
    r[7] = ABT_mutex_unlock(rm);
    /* the fourth is checked by the main ULT through trylock */
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
    ABT_mutex_attr attr;
    CHECK_OK(ABT_mutex_attr_create(&attr));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, &rm));
    CHECK_OK(ABT_mutex_attr_free(&attr));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    while (!atomic_load(&waiting))
        usleep(100);
    /* Taking the mutex proves every level was released; the waiter is then
     * in the queue. */
    CHECK_OK(ABT_mutex_lock(rm));
    CHECK_OK(ABT_mutex_lock(rm)); /* we may nest it too */
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_mutex_unlock(rm));
    CHECK_OK(ABT_mutex_unlock(rm));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(r[0], ABT_SUCCESS);
    CHECK_EQ(r[1], ABT_SUCCESS);
    CHECK_EQ(r[2], ABT_SUCCESS);
    CHECK_EQ(r[3], ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_trylock(rm)); /* free again */
    CHECK_OK(ABT_mutex_unlock(rm));

    /* Timed out: three levels back. Meanwhile the main ULT takes the mutex. */
    deadline = bb_test_realtime_in_ms(200);
    CHECK_OK(ABT_thread_create(pool, timed_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        usleep(100);
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    CHECK_OK(ABT_mutex_trylock(rm)); /* all levels released while it waits */
    CHECK_OK(ABT_mutex_unlock(rm));
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(r[4], ABT_ERR_COND_TIMEDOUT);
    CHECK_EQ(r[5], ABT_SUCCESS);
    CHECK_EQ(r[6], ABT_SUCCESS);
    CHECK_EQ(r[7], ABT_SUCCESS);
    CHECK_OK(ABT_mutex_trylock(rm)); /* fully released after three unlocks */
    CHECK_OK(ABT_mutex_unlock(rm));
    CHECK_OK(ABT_thread_free(&t));

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&rm));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
