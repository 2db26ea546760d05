/* Regression (sync review): when the rwlock passes to readers, every queued
 * reader is admitted together, including one queued behind a waiting
 * writer. The primary ULT holds the write lock; R1, W2 and R3 queue in that
 * order (one ES, ordered by yields, each BLOCKED before the next starts). The
 * unlock lets R1 and R3 hold the read lock together: R1 waits, holding it,
 * until R3 is inside (through an eventual that R3 sets), which used to
 * deadlock because R3 stayed queued behind W2. W2 gets the write lock only
 * after both readers unlocked. R1's wait is timed (2 s) so that the old
 * behaviour shows as a failure instead of a hang. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

static ABT_rwlock lock;
static ABT_eventual r3_inside;
static char log_[16];
static int nlog;
static int r1_wait_ret = -1;

static void note(char c)
{
    log_[nlog++] = c;
}

static void r1(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_rdlock(lock));
    note('a'); /* R1 in */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 2;
    r1_wait_ret = ABT_eventual_timedwait(r3_inside, NULL, &ts);
    note('A'); /* R1 out */
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void w2(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_wrlock(lock));
    note('w');
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void r3(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_rwlock_rdlock(lock));
    note('c'); /* R3 in */
    CHECK_OK(ABT_eventual_set(r3_inside, NULL, 0));
    ABT_thread_yield(); /* still holding the read lock */
    note('C'); /* R3 out */
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static ABT_thread start_blocked(ABT_pool pool, void (*fn)(void *))
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, fn, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    return t;
}

int main(void)
{
    BB_TEST_BEGIN(15);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_rwlock_create(&lock));
    CHECK_OK(ABT_eventual_create(0, &r3_inside));

    CHECK_OK(ABT_rwlock_wrlock(lock));
    ABT_thread t[3];
    t[0] = start_blocked(pool, r1);
    t[1] = start_blocked(pool, w2);
    t[2] = start_blocked(pool, r3);
    CHECK_EQ(nlog, 0);

    CHECK_OK(ABT_rwlock_unlock(lock));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));

    CHECK_EQ(r1_wait_ret, ABT_SUCCESS);
    log_[nlog] = '\0';
    /* Both readers in before either leaves; W2 last. */
    const char *pa = strchr(log_, 'a'), *pc = strchr(log_, 'c');
    const char *pA = strchr(log_, 'A'), *pC = strchr(log_, 'C');
    int ok = nlog == 5 && pa && pc && pA && pC && pa < pA && pc < pC && pa < pC && pc < pA &&
             log_[4] == 'w';
    if (!ok)
        BB_FAIL_AT("order %s: expected R1 in (a) and R3 in (c) before either leaves (A, C), "
                   "then W2 (w)",
                   log_);

    CHECK_OK(ABT_eventual_free(&r3_inside));
    CHECK_OK(ABT_rwlock_free(&lock));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
