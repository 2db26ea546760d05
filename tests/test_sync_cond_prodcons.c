/* Condition variables under contention across 2 ESs: a bounded buffer guarded
 * by one mutex and two conditions (not_full: a static ABT_COND_INITIALIZER
 * one; not_empty: created), 4 producers and 4 consumers spread over the
 * primary and a secondary ES pass 100,000 distinct items; every item is
 * consumed exactly once, and both signal and broadcast are used. A lost
 * wake-up would hang (the watchdog reports it). Then two ULTs on different
 * ESs ping-pong a turn 10,000 times on one condition with signal only, the
 * sharpest lost-wake-up detector. */
#include "bb_test.h"
#include <stdatomic.h>

#define NES 2
#define NPROD 4
#define NCONS 4
#define TOTAL 100000
#define PER_PROD (TOTAL / NPROD)
#define BUF 16
#define PINGPONG 10000

static ABT_mutex mutex;
static ABT_cond not_empty;
static ABT_cond_memory not_full_mem = ABT_COND_INITIALIZER;
static ABT_cond not_full;

static int buf[BUF];
static int head, count;   /* under mutex */
static long consumed;     /* under mutex */
static unsigned char seen[TOTAL];
static atomic_int errors, ready, go;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void producer(void *arg)
{
    int p = (int)(intptr_t)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        ABT_thread_yield();
    for (int i = 0; i < PER_PROD; i++) {
        note(ABT_mutex_lock(mutex));
        while (count == BUF)
            note(ABT_cond_wait(not_full, mutex));
        buf[(head + count) % BUF] = p * PER_PROD + i;
        count++;
        /* Mostly signal; every 7th item wakes every consumer instead. */
        note(i % 7 == 0 ? ABT_cond_broadcast(not_empty) : ABT_cond_signal(not_empty));
        note(ABT_mutex_unlock(mutex));
    }
}

static void consumer(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        ABT_thread_yield();
    for (;;) {
        note(ABT_mutex_lock(mutex));
        while (count == 0 && consumed < TOTAL)
            note(ABT_cond_wait(not_empty, mutex));
        if (count == 0) { /* everything consumed */
            note(ABT_mutex_unlock(mutex));
            return;
        }
        int item = buf[head];
        head = (head + 1) % BUF;
        count--;
        consumed++;
        if (item < 0 || item >= TOTAL)
            atomic_fetch_add(&errors, 1);
        else
            seen[item]++;
        if (consumed == TOTAL)
            note(ABT_cond_broadcast(not_empty)); /* let the other consumers leave */
        note(consumed % 5 == 0 ? ABT_cond_broadcast(not_full) : ABT_cond_signal(not_full));
        note(ABT_mutex_unlock(mutex));
    }
}

/* Ping-pong: player k waits for turn == k, then hands the turn over. */
static ABT_cond turn_cond;
static int turn; /* under mutex */

static void player(void *arg)
{
    int me = (int)(intptr_t)arg;
    for (int r = 0; r < PINGPONG; r++) {
        note(ABT_mutex_lock(mutex));
        while (turn != me)
            note(ABT_cond_wait(turn_cond, mutex));
        turn = 1 - me;
        note(ABT_cond_signal(turn_cond));
        note(ABT_mutex_unlock(mutex));
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pools[NES];
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));

    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_cond_create(&not_empty));
    not_full = ABT_COND_MEMORY_GET_HANDLE(&not_full_mem);

    ABT_thread prod[NPROD], cons[NCONS];
    for (int i = 0; i < NCONS; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], consumer, NULL, ABT_THREAD_ATTR_NULL,
                                   &cons[i]));
    for (int i = 0; i < NPROD; i++)
        CHECK_OK(ABT_thread_create(pools[(i + 1) % NES], producer, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, &prod[i]));
    while (atomic_load(&ready) < NPROD + NCONS)
        ABT_thread_yield(); /* everybody at the gate: start together */
    atomic_store(&go, 1);
    for (int i = 0; i < NPROD; i++)
        CHECK_OK(ABT_thread_free(&prod[i]));
    for (int i = 0; i < NCONS; i++)
        CHECK_OK(ABT_thread_free(&cons[i]));

    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_EQ(consumed, TOTAL);
    CHECK_EQ(count, 0);
    int missing = 0, duplicated = 0;
    for (int i = 0; i < TOTAL; i++) {
        if (seen[i] == 0)
            missing++;
        else if (seen[i] > 1)
            duplicated++;
    }
    CHECK_EQ(missing, 0);
    CHECK_EQ(duplicated, 0);

    /* Ping-pong across the two ESs. */
    CHECK_OK(ABT_cond_create(&turn_cond));
    ABT_thread players[2];
    for (int k = 0; k < 2; k++)
        CHECK_OK(ABT_thread_create(pools[k], player, (void *)(intptr_t)k, ABT_THREAD_ATTR_NULL,
                                   &players[k]));
    for (int k = 0; k < 2; k++)
        CHECK_OK(ABT_thread_free(&players[k]));
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_EQ(turn, 0); /* an even number of hand-overs */

    /* Nobody waits any more: everything can be freed. */
    CHECK_OK(ABT_cond_free(&turn_cond));
    CHECK_OK(ABT_cond_free(&not_empty));
    CHECK(not_empty == ABT_COND_NULL);
    CHECK_OK(ABT_mutex_free(&mutex));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
