/* A cond from ABT_COND_INITIALIZER (through ABT_COND_MEMORY_GET_HANDLE),
 * with a mutex from ABT_MUTEX_INITIALIZER, works like created ones: a ULT on
 * a second ES and the primary ULT play ping-pong for 200 rounds with
 * cond_wait/cond_signal; then a recursive static mutex
 * (ABT_RECURSIVE_MUTEX_INITIALIZER) is used with the same cond once nobody
 * waits; a timedwait with a past deadline times out; and the objects are
 * never freed. */
#include "bb_test.h"
#include <time.h>

#define ROUNDS 200

static ABT_mutex_memory mmem = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory rmem = ABT_RECURSIVE_MUTEX_INITIALIZER;
static ABT_cond_memory cmem = ABT_COND_INITIALIZER;
static int turn; /* 0: the primary ULT's turn, 1: the other's */
static int hits[2], errors;

static void player(void *arg)
{
    int me = (int)(long)arg;
    ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE(&mmem);
    ABT_cond c = ABT_COND_MEMORY_GET_HANDLE(&cmem);
    for (int i = 0; i < ROUNDS; i++) {
        if (ABT_mutex_lock(m) != ABT_SUCCESS)
            errors++;
        while (turn != me)
            if (ABT_cond_wait(c, m) != ABT_SUCCESS)
                errors++;
        hits[me]++;
        turn = !me;
        if (ABT_cond_signal(c) != ABT_SUCCESS)
            errors++;
        if (ABT_mutex_unlock(m) != ABT_SUCCESS)
            errors++;
    }
}

static int rec_ret[4];
static void rec_waiter(void *arg)
{
    (void)arg;
    ABT_mutex r = ABT_MUTEX_MEMORY_GET_HANDLE(&rmem);
    ABT_cond c = ABT_COND_MEMORY_GET_HANDLE(&cmem);
    ABT_mutex_lock(r);
    ABT_mutex_lock(r);
    turn = 2;
    rec_ret[0] = ABT_cond_wait(c, r);
    rec_ret[1] = ABT_mutex_unlock(r);
    rec_ret[2] = ABT_mutex_unlock(r);
    rec_ret[3] = ABT_mutex_unlock(r);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_cond c = ABT_COND_MEMORY_GET_HANDLE(&cmem);
    ABT_mutex r = ABT_MUTEX_MEMORY_GET_HANDLE(&rmem);

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, player, (void *)1, ABT_THREAD_ATTR_NULL, &t));
    player((void *)0);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(hits[0], ROUNDS);
    CHECK_EQ(hits[1], ROUNDS);
    CHECK_EQ(errors, 0);

    /* The same cond with another (recursive) mutex, now that nobody waits. */
    CHECK_OK(ABT_thread_create(pool, rec_waiter, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        usleep(100);
    }
    CHECK_OK(ABT_mutex_lock(r));
    CHECK_EQ(turn, 2);
    CHECK_OK(ABT_cond_signal(c));
    CHECK_OK(ABT_mutex_unlock(r));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(rec_ret[0], ABT_SUCCESS);
    CHECK_EQ(rec_ret[1], ABT_SUCCESS);
    CHECK_EQ(rec_ret[2], ABT_SUCCESS);
    CHECK_EQ(rec_ret[3], ABT_ERR_MUTEX);

    struct timespec past;
    clock_gettime(CLOCK_REALTIME, &past);
    past.tv_sec -= 1;
    CHECK_OK(ABT_mutex_lock(r));
    CHECK_ERR(ABT_cond_timedwait(c, r, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_mutex_unlock(r));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
