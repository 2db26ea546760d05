/* An OS thread that cannot switch (here an external thread, in ABT_thread_join
 * and then in ABT_cond_wait) sleeps in the kernel on a futex word. Its waker
 * stores the signal and then issues the futex wake, so the waiter may see the
 * store and return first. The wake must then still land on the waiter's
 * word, not on memory the waiter has reused since: the word an OS waiter
 * sleeps on lives as long as its thread, not in the frame of the wait.
 *
 * The test watches the library's futex calls (futex_watch_util.h) to
 * force that order: the waiter's
 * futex waits return at once, as spurious wake-ups may, so it returns as soon
 * as it sees the signal; the wake of its word is held back until the waiter
 * has returned and overwritten the stack below its frame, then reads the
 * word before passing the wake on. The word must still hold the signal (1);
 * on a dead frame it holds the scribble. */
#include "bb_test.h"
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

static atomic_int armed;
static __thread bool is_waiter;       /* the external thread that waits */
static atomic_uintptr_t waiter_word; /* what its first futex wait was on */
static atomic_int waiter_done;       /* it returned and scribbled */
static atomic_int wakes_seen;
static atomic_uint word_at_wake;

static void until_set(atomic_int *flag)
{
    for (int i = 0; i < 50000 && !atomic_load(flag); i++)
        usleep(100);
}

static bool on_futex(long a[6], long *result)
{
    if (!atomic_load(&armed))
        return false;
    int cmd = (int)a[1] & FUTEX_CMD_MASK;
    bool is_wait = cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET;
    if (is_wait && is_waiter) {
        uintptr_t none = 0;
        atomic_compare_exchange_strong(&waiter_word, &none, (uintptr_t)a[0]);
        usleep(100);
        errno = EINTR; /* a spurious wake-up: the waiter looks again */
        *result = -1;
        return true;
    }
    if (cmd == FUTEX_WAKE && (uintptr_t)a[0] == atomic_load(&waiter_word)) {
        until_set(&waiter_done);
        atomic_store(&word_at_wake, __atomic_load_n((uint32_t *)a[0], __ATOMIC_RELAXED));
        atomic_fetch_add(&wakes_seen, 1);
    }
    return false;
}

#include "futex_watch_util.h"

/* Overwrite the stack below the caller's frame, where the wait's frames were. */
static __attribute__((noinline)) void scribble_below(void)
{
    volatile unsigned char junk[16384];
    for (size_t i = 0; i < sizeof(junk); i++)
        junk[i] = 0xa5;
}

static ABT_mutex mtx;
static ABT_cond cond;
static int ready; /* under mtx */

/* The waker's side: wait until the waiter sleeps, then wake it. */
static void end_when_waited_for(void *arg)
{
    (void)arg;
    while (!atomic_load(&waiter_word))
        usleep(100);
}

static void signal_when_waited_for(void *arg)
{
    (void)arg;
    while (!atomic_load(&waiter_word))
        usleep(100);
    ABT_mutex_lock(mtx);
    ready = 1;
    ABT_mutex_unlock(mtx);
    ABT_cond_signal(cond); /* without the mutex: the woken waiter takes it at once */
}

static ABT_thread target;
static int r_wait = -1;

static void *join_target(void *arg)
{
    (void)arg;
    is_waiter = true;
    r_wait = ABT_thread_join(target);
    scribble_below();
    atomic_store(&waiter_done, 1);
    return NULL;
}

static void *wait_on_cond(void *arg)
{
    (void)arg;
    is_waiter = true;
    r_wait = ABT_mutex_lock(mtx);
    while (r_wait == ABT_SUCCESS && !ready)
        r_wait = ABT_cond_wait(cond, mtx);
    ABT_mutex_unlock(mtx);
    scribble_below();
    atomic_store(&waiter_done, 1);
    return NULL;
}

/* One round: `waker` runs as a ULT on `pool` while an external thread runs
 * `wait`, with the interposer armed. */
static void round_of(const char *what, ABT_pool pool, void (*waker)(void *), void *(*wait)(void *))
{
    atomic_store(&waiter_word, 0);
    atomic_store(&waiter_done, 0);
    atomic_store(&wakes_seen, 0);
    atomic_store(&word_at_wake, 0);
    r_wait = -1;
    atomic_store(&armed, 1);
    CHECK_OK(ABT_thread_create(pool, waker, NULL, ABT_THREAD_ATTR_NULL, &target));
    pthread_t waiter;
    CHECK_EQ(pthread_create(&waiter, NULL, wait, NULL), 0);
    pthread_join(waiter, NULL);
    until_set(&wakes_seen); /* the waker may still be at the wake */
    CHECK_OK(ABT_thread_free(&target));
    atomic_store(&armed, 0);
    printf("%s: wakes held back %d, word at the wake %#x\n", what, atomic_load(&wakes_seen),
           atomic_load(&word_at_wake));
    CHECK_OK(r_wait);
    CHECK_EQ(atomic_load(&wakes_seen), 1);
    CHECK_EQ(atomic_load(&word_at_wake), 1u);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    futex_watch_init();
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_mutex_create(&mtx));
    CHECK_OK(ABT_cond_create(&cond));

    round_of("join", pool, end_when_waited_for, join_target);
    round_of("cond", pool, signal_when_waited_for, wait_on_cond);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
