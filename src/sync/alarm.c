/*
 * Deadlines of blocked ULTs (ABT_cond_timedwait, ABT_eventual_timedwait).
 *
 * A ULT that waits with a deadline blocks like any other waiter, so that its
 * ES runs other work or sleeps; one process-wide alarm thread sleeps until
 * the earliest deadline and then ends the waits that are due, exactly as a
 * waker would: under the object's lock, unless a waker came first. The
 * thread starts with the first timed wait and stops at ABT_finalize.
 *
 * The armed alarms form a binary min-heap on their deadlines. An alarm lives
 * on its ULT's stack: the ULT disarms it before returning and, if the alarm
 * thread has already taken it, waits until the thread is done with it.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>

#include "bb_wait.h"

static struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;  /* a new earliest deadline, or stop */
    pthread_t thread;
    bool running;
    bool stopping;
    bb_alarm **heap;
    uint32_t size;
    uint32_t cap;
} alarms = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};

/* ---- the heap (under alarms.lock) -------------------------------------------- */

static bool earlier(const bb_alarm *a, const bb_alarm *b)
{
    return a->deadline.tv_sec < b->deadline.tv_sec ||
           (a->deadline.tv_sec == b->deadline.tv_sec && a->deadline.tv_nsec < b->deadline.tv_nsec);
}

static void place(bb_alarm *a, uint32_t i)
{
    alarms.heap[i] = a;
    a->index = i;
}

static void sift_up(uint32_t i)
{
    bb_alarm *a = alarms.heap[i];
    while (i > 0 && earlier(a, alarms.heap[(i - 1) / 2])) {
        place(alarms.heap[(i - 1) / 2], i);
        i = (i - 1) / 2;
    }
    place(a, i);
}

static void sift_down(uint32_t i)
{
    bb_alarm *a = alarms.heap[i];
    for (;;) {
        uint32_t child = 2 * i + 1;
        if (child >= alarms.size)
            break;
        if (child + 1 < alarms.size && earlier(alarms.heap[child + 1], alarms.heap[child]))
            child++;
        if (!earlier(alarms.heap[child], a))
            break;
        place(alarms.heap[child], i);
        i = child;
    }
    place(a, i);
}

static bool heap_insert(bb_alarm *a)
{
    if (alarms.size == alarms.cap) {
        uint32_t cap = alarms.cap ? 2 * alarms.cap : 64;
        bb_alarm **heap = realloc(alarms.heap, cap * sizeof(*heap));
        if (!heap)
            return false;
        alarms.heap = heap;
        alarms.cap = cap;
    }
    place(a, alarms.size++);
    sift_up(a->index);
    return true;
}

static void heap_remove(bb_alarm *a)
{
    uint32_t i = a->index;
    bb_alarm *last = alarms.heap[--alarms.size];
    a->index = UINT32_MAX;
    if (last == a)
        return;
    place(last, i);
    sift_up(i);
    sift_down(last->index);
}

static bool is_armed(const bb_alarm *a)
{
    return a->index != UINT32_MAX;
}

/* ---- the alarm thread --------------------------------------------------------- */

/* End the wait of a due alarm, unless a waker ended it first. */
static void fire(bb_alarm *a)
{
    bb_wait_node *n = a->node;
    uintptr_t w = 0;
    bb_spin_lock(a->lock);
    if (bb_load_relaxed(&n->status) == BB_WAIT_PENDING) {
        bb_waitq_remove(a->q, n);
        bb_store_relaxed(&n->status, (uint32_t)BB_WAIT_TIMEDOUT);
        w = n->waiter;
    }
    bb_spin_unlock(a->lock);
    bb_store_release(&a->firing, 0u); /* the ULT may return once woken */
    bb_wait_wake(w);
}

static void *alarm_thread(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&alarms.lock);
    while (!alarms.stopping) {
        if (alarms.size == 0) {
            pthread_cond_wait(&alarms.changed, &alarms.lock);
            continue;
        }
        bb_alarm *first = alarms.heap[0];
        if (!bb_timespec_passed(&first->deadline)) {
            /* A copy: the alarm's ULT may disarm it and return while we sleep. */
            struct timespec deadline = first->deadline;
            pthread_cond_timedwait(&alarms.changed, &alarms.lock, &deadline);
            continue;
        }
        heap_remove(first);
        bb_store_relaxed(&first->firing, 1u);
        pthread_mutex_unlock(&alarms.lock);
        fire(first);
        pthread_mutex_lock(&alarms.lock);
    }
    pthread_mutex_unlock(&alarms.lock);
    return NULL;
}

static bool start_locked(void)
{
    if (alarms.running)
        return true;
    alarms.stopping = false;
    /* The program's signals go to its own threads, never to this one. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(&alarms.thread, NULL, alarm_thread, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (err != 0)
        return false;
    alarms.running = true;
    return true;
}

/* ---- the waiters' side -------------------------------------------------------- */

bool bb_alarm_arm(bb_alarm *a)
{
    a->firing = 0;
    pthread_mutex_lock(&alarms.lock);
    bool ok = start_locked() && heap_insert(a);
    if (ok && a->index == 0)
        pthread_cond_signal(&alarms.changed);
    pthread_mutex_unlock(&alarms.lock);
    return ok;
}

void bb_alarm_disarm(bb_alarm *a)
{
    pthread_mutex_lock(&alarms.lock);
    if (is_armed(a))
        heap_remove(a);
    pthread_mutex_unlock(&alarms.lock);
    while (bb_load_acquire(&a->firing))
        sched_yield(); /* the alarm thread is between taking and firing it */
}

void bb_alarm_shutdown(void)
{
    pthread_mutex_lock(&alarms.lock);
    bool running = alarms.running;
    alarms.stopping = true;
    pthread_cond_signal(&alarms.changed);
    pthread_mutex_unlock(&alarms.lock);
    if (running)
        pthread_join(alarms.thread, NULL);
    pthread_mutex_lock(&alarms.lock);
    alarms.running = false;
    free(alarms.heap);
    alarms.heap = NULL;
    alarms.size = alarms.cap = 0;
    pthread_mutex_unlock(&alarms.lock);
}
