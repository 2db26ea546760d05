/* External threads (pthreads that are not ESs) use the synchronization objects
 * together with ULTs on 2 ESs:
 * - they lock a mutex contended with ULTs (lock, trylock loop, spinlock):
 *   the counter is exact; an external thread cannot unlock a recursive mutex
 *   a ULT holds (ABT_ERR_MUTEX) but may unlock a plain one (it records no
 *   owner; then it is free: a second unlock is ABT_ERR_MUTEX); it waits for
 *   the recursive one and then nests it;
 * - they wait on eventuals set by ULTs (and a ULT waits on one set by them);
 * - an external thread and a ULT ping-pong a turn on one condition variable
 *   (signal in both directions), and several external threads are woken by a
 *   ULT's broadcast;
 * - an external thread sets an eventual that ULTs on both ESs block on, then
 *   joins and frees those ULTs (ABT_thread_join from the pthread). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include "bb_test.h"

#define NES 2
#define ULTS_PER_ES 10
#define ULT_ITERS 1000
#define NEXT 3
#define EXT_ITERS 5000
#define TOTAL ((long)NES * ULTS_PER_ES * ULT_ITERS + (long)NEXT * EXT_ITERS)
#define PINGPONG 2000

static ABT_pool pools[NES];
static ABT_mutex mutex;
static volatile long counter;
static atomic_int ready, go, inside, overlap, errors;

static void note(int ret)
{
    if (ret != ABT_SUCCESS)
        atomic_fetch_add(&errors, 1);
}

static void critical(void)
{
    if (atomic_fetch_add(&inside, 1) != 0)
        atomic_fetch_add(&overlap, 1);
    long v = counter;
    for (volatile int k = 0; k < 8; k++) {
    }
    counter = v + 1;
    atomic_fetch_sub(&inside, 1);
}

/* ---- mutex ------------------------------------------------------------------ */

static void ult_incr(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        ABT_thread_yield();
    for (int i = 0; i < ULT_ITERS; i++) {
        if (i % 64 == 63)
            ABT_thread_yield();
        note(ABT_mutex_lock(mutex));
        critical();
        note(ABT_mutex_unlock(mutex));
    }
}

static void *ext_incr(void *arg)
{
    int how = (int)(intptr_t)arg;
    atomic_fetch_add(&ready, 1);
    while (!atomic_load(&go))
        sched_yield();
    for (int i = 0; i < EXT_ITERS; i++) {
        if (how == 0) {
            note(ABT_mutex_lock(mutex));
        } else if (how == 1) {
            int ret;
            while ((ret = ABT_mutex_trylock(mutex)) == ABT_ERR_MUTEX_LOCKED)
                sched_yield();
            note(ret);
        } else {
            note(ABT_mutex_spinlock(mutex));
        }
        critical();
        note(ABT_mutex_unlock(mutex));
    }
    return NULL;
}

static ABT_mutex rmutex; /* recursive */
static atomic_int ult_holds, release_holder;
static int ext_unlock_rec_ret = -1, ext_unlock_plain_ret = -1, ext_unlock_plain_again_ret = -1;
static int ext_relock_ret = -1, ext_unlock_own_ret[2] = {-1, -1}, ext_unlock_extra_ret = -1;

/* Holds both mutexes; leaves the plain one to the external thread. */
static void holder(void *arg)
{
    (void)arg;
    note(ABT_mutex_lock(rmutex));
    note(ABT_mutex_lock(mutex));
    atomic_store(&ult_holds, 1);
    while (!atomic_load(&release_holder))
        ABT_thread_yield();
    note(ABT_mutex_unlock(rmutex));
}

static void *ext_ownership(void *arg)
{
    (void)arg;
    while (!atomic_load(&ult_holds))
        ;
    ext_unlock_rec_ret = ABT_mutex_unlock(rmutex);         /* the ULT owns it */
    ext_unlock_plain_ret = ABT_mutex_unlock(mutex);        /* no owner: released */
    ext_unlock_plain_again_ret = ABT_mutex_unlock(mutex);  /* not locked any more */
    atomic_store(&release_holder, 1);
    note(ABT_mutex_lock(rmutex)); /* waits for the ULT's unlock */
    ext_relock_ret = ABT_mutex_lock(rmutex); /* nests */
    ext_unlock_own_ret[0] = ABT_mutex_unlock(rmutex);
    ext_unlock_own_ret[1] = ABT_mutex_unlock(rmutex);
    ext_unlock_extra_ret = ABT_mutex_unlock(rmutex);
    return NULL;
}

static void mutex_part(void)
{
    CHECK_OK(ABT_mutex_create(&mutex));
    ABT_thread t[NES * ULTS_PER_ES];
    pthread_t ext[NEXT];
    for (int i = 0; i < NES * ULTS_PER_ES; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], ult_incr, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < NEXT; i++)
        CHECK_EQ(pthread_create(&ext[i], NULL, ext_incr, (void *)(intptr_t)(i % 3)), 0);
    while (atomic_load(&ready) < NES * ULTS_PER_ES + NEXT)
        ABT_thread_yield(); /* everybody at the gate: start together */
    atomic_store(&go, 1);
    for (int i = 0; i < NES * ULTS_PER_ES; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    for (int i = 0; i < NEXT; i++)
        CHECK_EQ(pthread_join(ext[i], NULL), 0);
    CHECK_EQ(counter, TOTAL);
    CHECK_EQ(atomic_load(&overlap), 0);
    CHECK_EQ(atomic_load(&errors), 0);

    ABT_mutex_attr attr;
    CHECK_OK(ABT_mutex_attr_create(&attr));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, &rmutex));
    CHECK_OK(ABT_mutex_attr_free(&attr));
    ABT_thread h;
    pthread_t m;
    CHECK_OK(ABT_thread_create(pools[1], holder, NULL, ABT_THREAD_ATTR_NULL, &h));
    CHECK_EQ(pthread_create(&m, NULL, ext_ownership, NULL), 0);
    CHECK_EQ(pthread_join(m, NULL), 0);
    CHECK_OK(ABT_thread_free(&h));
    CHECK_EQ(ext_unlock_rec_ret, ABT_ERR_MUTEX);
    CHECK_EQ(ext_unlock_plain_ret, ABT_SUCCESS);
    CHECK_EQ(ext_unlock_plain_again_ret, ABT_ERR_MUTEX);
    CHECK_EQ(ext_relock_ret, ABT_SUCCESS);
    CHECK_EQ(ext_unlock_own_ret[0], ABT_SUCCESS);
    CHECK_EQ(ext_unlock_own_ret[1], ABT_SUCCESS);
    CHECK_EQ(ext_unlock_extra_ret, ABT_ERR_MUTEX);
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_OK(ABT_mutex_trylock(mutex)); /* both free again */
    CHECK_OK(ABT_mutex_unlock(mutex));
    CHECK_OK(ABT_mutex_trylock(rmutex));
    CHECK_OK(ABT_mutex_unlock(rmutex));
    CHECK_OK(ABT_mutex_free(&rmutex));
    CHECK_OK(ABT_mutex_free(&mutex));
}

/* ---- eventuals ---------------------------------------------------------------- */

static ABT_eventual ev_to_ext, ev_to_ult;
static atomic_int ext_waiting;
static atomic_int ext_bad;

static void ult_sets(void *arg)
{
    (void)arg;
    while (atomic_load(&ext_waiting) < NEXT)
        ABT_thread_yield();
    for (int i = 0; i < 50; i++)
        ABT_thread_yield(); /* give them time to fall asleep */
    long v = 4242;
    note(ABT_eventual_set(ev_to_ext, &v, sizeof(v)));
    /* Then wait for the reply from an external thread. */
    void *reply = NULL;
    note(ABT_eventual_wait(ev_to_ult, &reply));
    if (!reply || *(long *)reply != 77)
        atomic_fetch_add(&ext_bad, 1);
}

static void *ext_waits_eventual(void *arg)
{
    int id = (int)(intptr_t)arg;
    atomic_fetch_add(&ext_waiting, 1);
    void *value = NULL;
    note(ABT_eventual_wait(ev_to_ext, &value));
    if (!value || *(long *)value != 4242)
        atomic_fetch_add(&ext_bad, 1);
    if (id == 0) {
        usleep(10000); /* the ULT is blocked by now */
        long reply = 77;
        note(ABT_eventual_set(ev_to_ult, &reply, sizeof(reply)));
    }
    return NULL;
}

static void eventual_part(void)
{
    CHECK_OK(ABT_eventual_create(sizeof(long), &ev_to_ext));
    CHECK_OK(ABT_eventual_create(sizeof(long), &ev_to_ult));
    for (int round = 0; round < 2; round++) {
        atomic_store(&ext_waiting, 0);
        pthread_t ext[NEXT];
        for (int i = 0; i < NEXT; i++)
            CHECK_EQ(pthread_create(&ext[i], NULL, ext_waits_eventual, (void *)(intptr_t)i), 0);
        ABT_thread setter;
        CHECK_OK(ABT_thread_create(pools[round], ult_sets, NULL, ABT_THREAD_ATTR_NULL, &setter));
        /* Free (join) the ULT first: pthread_join would hold the primary ES,
         * on which the setter may have to run. */
        CHECK_OK(ABT_thread_free(&setter));
        for (int i = 0; i < NEXT; i++)
            CHECK_EQ(pthread_join(ext[i], NULL), 0);
        CHECK_OK(ABT_eventual_reset(ev_to_ext));
        CHECK_OK(ABT_eventual_reset(ev_to_ult));
    }
    CHECK_EQ(atomic_load(&ext_bad), 0);
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_OK(ABT_eventual_free(&ev_to_ext));
    CHECK_OK(ABT_eventual_free(&ev_to_ult));
}

/* ---- condition variable --------------------------------------------------------- */

static ABT_cond cond;
static int turn;          /* under mutex: 0 = external thread, 1 = ULT */
static int released;      /* under mutex */
static atomic_int asleep;

static void *ext_player(void *arg)
{
    (void)arg;
    for (int r = 0; r < PINGPONG; r++) {
        note(ABT_mutex_lock(mutex));
        while (turn != 0)
            note(ABT_cond_wait(cond, mutex));
        turn = 1;
        note(ABT_cond_signal(cond));
        note(ABT_mutex_unlock(mutex));
    }
    return NULL;
}

static void ult_player(void *arg)
{
    (void)arg;
    for (int r = 0; r < PINGPONG; r++) {
        note(ABT_mutex_lock(mutex));
        while (turn != 1)
            note(ABT_cond_wait(cond, mutex));
        turn = 0;
        note(ABT_cond_signal(cond));
        note(ABT_mutex_unlock(mutex));
    }
}

static void *ext_sleeper(void *arg)
{
    (void)arg;
    note(ABT_mutex_lock(mutex));
    atomic_fetch_add(&asleep, 1);
    while (!released)
        note(ABT_cond_wait(cond, mutex));
    note(ABT_mutex_unlock(mutex));
    return NULL;
}

static void ult_broadcaster(void *arg)
{
    (void)arg;
    while (atomic_load(&asleep) < NEXT)
        ABT_thread_yield();
    /* Each sleeper counted itself with the mutex held, so once we hold it
     * every one of them is inside ABT_cond_wait. */
    note(ABT_mutex_lock(mutex));
    released = 1;
    note(ABT_cond_broadcast(cond));
    note(ABT_mutex_unlock(mutex));
}

static void cond_part(void)
{
    CHECK_OK(ABT_mutex_create(&mutex));
    CHECK_OK(ABT_cond_create(&cond));
    for (int side = 0; side < NES; side++) {
        turn = 0;
        pthread_t ext;
        ABT_thread u;
        CHECK_EQ(pthread_create(&ext, NULL, ext_player, NULL), 0);
        CHECK_OK(ABT_thread_create(pools[side], ult_player, NULL, ABT_THREAD_ATTR_NULL, &u));
        CHECK_OK(ABT_thread_free(&u));
        CHECK_EQ(pthread_join(ext, NULL), 0);
        CHECK_EQ(turn, 0);
    }
    pthread_t ext[NEXT];
    for (int i = 0; i < NEXT; i++)
        CHECK_EQ(pthread_create(&ext[i], NULL, ext_sleeper, NULL), 0);
    ABT_thread b;
    CHECK_OK(ABT_thread_create(pools[1], ult_broadcaster, NULL, ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_free(&b));
    for (int i = 0; i < NEXT; i++)
        CHECK_EQ(pthread_join(ext[i], NULL), 0);
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mutex));
}

/* ---- join from an external thread ------------------------------------------------ */

#define NJOIN 16
static ABT_eventual go_ev;
static ABT_thread joinees[NJOIN];
static atomic_int joinee_done, joinees_started, joiner_finished;
static int ext_join_errors, ext_done_seen;

static void joinee(void *arg)
{
    (void)arg;
    atomic_fetch_add(&joinees_started, 1);
    note(ABT_eventual_wait(go_ev, NULL));
    ABT_thread_yield();
    atomic_fetch_add(&joinee_done, 1);
}

static void *ext_joiner(void *arg)
{
    (void)arg;
    while (atomic_load(&joinees_started) < NJOIN)
        sched_yield();
    usleep(5000);
    if (ABT_eventual_set(go_ev, NULL, 0) != ABT_SUCCESS)
        ext_join_errors++;
    for (int i = 0; i < NJOIN; i++) {
        if (ABT_thread_join(joinees[i]) != ABT_SUCCESS)
            ext_join_errors++;
        ABT_thread_state st;
        if (ABT_thread_get_state(joinees[i], &st) != ABT_SUCCESS ||
            st != ABT_THREAD_STATE_TERMINATED)
            ext_join_errors++;
        if (ABT_thread_free(&joinees[i]) != ABT_SUCCESS)
            ext_join_errors++;
    }
    ext_done_seen = atomic_load(&joinee_done);
    atomic_store(&joiner_finished, 1);
    return NULL;
}

static void join_part(void)
{
    CHECK_OK(ABT_eventual_create(0, &go_ev));
    for (int i = 0; i < NJOIN; i++)
        CHECK_OK(ABT_thread_create(pools[i % NES], joinee, NULL, ABT_THREAD_ATTR_NULL,
                                   &joinees[i]));
    pthread_t ext;
    CHECK_EQ(pthread_create(&ext, NULL, ext_joiner, NULL), 0);
    /* pthread_join would hold the primary ES, on which half the joinees run:
     * yield until the external thread is done with them. */
    while (!atomic_load(&joiner_finished))
        ABT_thread_yield();
    CHECK_EQ(pthread_join(ext, NULL), 0);
    CHECK_EQ(ext_join_errors, 0);
    CHECK_EQ(ext_done_seen, NJOIN);
    for (int i = 0; i < NJOIN; i++)
        CHECK(joinees[i] == ABT_THREAD_NULL);
    CHECK_EQ(atomic_load(&errors), 0);
    CHECK_OK(ABT_eventual_free(&go_ev));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));

    mutex_part();
    eventual_part();
    cond_part();
    join_part();

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
