/* ABT_rwlock waiters are granted the lock in arrival order by hand-off:
 * with the main ULT holding the write lock and W1, R1, R2, W2, R3 queued (in
 * that order), the unlock hands it to W1 alone; W1's unlock admits every
 * queued reader together (R1, R2 and R3, which would have entered at once had
 * it come while readers held the lock); their unlocks hand it to W2. While units wait, ABT_rwlock_free -> ABT_ERR_RWLOCK and the
 * handle is left alone. Everything runs on the primary ES. */
#include "bb_test.h"
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

static ABT_rwlock lock;
static ABT_pool pool;
static char order[16];
static int norder;
static atomic_int readers_in;

static void note(char c)
{
    order[norder++] = c;
}

static void writer(void *arg)
{
    CHECK_OK(ABT_rwlock_wrlock(lock));
    note(*(const char *)arg);
    for (int i = 0; i < 5; i++)
        ABT_thread_yield(); /* nobody else gets in meanwhile */
    note(*(const char *)arg);
    CHECK_OK(ABT_rwlock_unlock(lock));
}

/* R1 and R2 wait for each other while holding the read lock. */
static void pair_reader(void *arg)
{
    CHECK_OK(ABT_rwlock_rdlock(lock));
    note(*(const char *)arg);
    atomic_fetch_add(&readers_in, 1);
    while (atomic_load(&readers_in) < 2)
        ABT_thread_yield();
    for (int i = 0; i < 5; i++)
        ABT_thread_yield();
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static void reader(void *arg)
{
    CHECK_OK(ABT_rwlock_rdlock(lock));
    note(*(const char *)arg);
    CHECK_OK(ABT_rwlock_unlock(lock));
}

static ABT_thread start_blocked(void (*fn)(void *), const char *name)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, fn, (void *)name, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == ABT_THREAD_STATE_TERMINATED) {
            CHECK(st != ABT_THREAD_STATE_TERMINATED);
            break;
        }
    }
    return t;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_rwlock_create(&lock));

    CHECK_OK(ABT_rwlock_wrlock(lock));
    ABT_thread t[5];
    t[0] = start_blocked(writer, "W");
    t[1] = start_blocked(pair_reader, "a");
    t[2] = start_blocked(pair_reader, "b");
    t[3] = start_blocked(writer, "X");
    t[4] = start_blocked(reader, "c");
    CHECK_EQ(norder, 0);

    ABT_rwlock saved = lock;
    CHECK_ERR(ABT_rwlock_free(&lock), ABT_ERR_RWLOCK);
    CHECK(lock == saved);

    CHECK_OK(ABT_rwlock_unlock(lock));
    for (int i = 0; i < 5; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    order[norder] = '\0';
    /* The readers a, b and c may note themselves in any order. */
    bool readers_together = norder == 7 && strchr(order + 2, 'a') - order < 5 &&
                            strchr(order + 2, 'b') - order < 5 && strchr(order + 2, 'c') - order < 5;
    if (strncmp(order, "WW", 2) != 0 || strcmp(order + 5, "XX") != 0 || !readers_together)
        BB_FAIL_AT("acquisition order %s, expected WW, then a b c in any order, then XX", order);

    CHECK_OK(ABT_rwlock_free(&lock));
    CHECK(lock == ABT_RWLOCK_NULL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
