/* ABT_cond_free refuses a cond that somebody waits on (ABT_ERR_COND, the
 * handle untouched): a ULT blocked in ABT_cond_wait, an external thread in
 * ABT_cond_wait, a ULT in ABT_cond_timedwait. After the waiter left (woken
 * by a signal, or timed out) the cond can be freed. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static ABT_cond cond;
static ABT_mutex mtx;
static atomic_int waiting;
static int ret = -1;
static struct timespec deadline;

static void ult_wait(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    atomic_store(&waiting, 1);
    ret = ABT_cond_wait(cond, mtx);
    ABT_mutex_unlock(mtx);
}

static void ult_timedwait(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    atomic_store(&waiting, 1);
    ret = ABT_cond_timedwait(cond, mtx, &deadline);
    ABT_mutex_unlock(mtx);
}

static void *ext_wait(void *arg)
{
    ult_wait(arg);
    return NULL;
}

/* Once the flag is up and we hold the mutex, the waiter is queued. */
static void until_queued(void)
{
    while (!atomic_load(&waiting))
        usleep(100);
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_OK(ABT_mutex_unlock(mtx));
}

static void check_refused(void)
{
    ABT_cond saved = cond;
    CHECK_ERR(ABT_cond_free(&cond), ABT_ERR_COND);
    CHECK(cond == saved);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mtx));

    /* A ULT in cond_wait. */
    CHECK_OK(ABT_cond_create(&cond));
    ABT_thread t;
    atomic_store(&waiting, 0);
    CHECK_OK(ABT_thread_create(pool, ult_wait, NULL, ABT_THREAD_ATTR_NULL, &t));
    until_queued();
    check_refused();
    CHECK_OK(ABT_cond_signal(cond));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK_OK(ABT_cond_free(&cond));
    CHECK(cond == ABT_COND_NULL);

    /* An external thread in cond_wait. */
    CHECK_OK(ABT_cond_create(&cond));
    atomic_store(&waiting, 0);
    ret = -1;
    pthread_t p;
    CHECK_EQ(pthread_create(&p, NULL, ext_wait, NULL), 0);
    until_queued();
    check_refused();
    CHECK_OK(ABT_cond_broadcast(cond));
    pthread_join(p, NULL);
    CHECK_EQ(ret, ABT_SUCCESS);
    CHECK_OK(ABT_cond_free(&cond));

    /* A ULT in cond_timedwait, refused until it times out. */
    CHECK_OK(ABT_cond_create(&cond));
    atomic_store(&waiting, 0);
    ret = -1;
    deadline = bb_test_realtime_in_ms(300);
    CHECK_OK(ABT_thread_create(pool, ult_timedwait, NULL, ABT_THREAD_ATTR_NULL, &t));
    until_queued();
    check_refused();
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ret, ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_cond_free(&cond));

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
