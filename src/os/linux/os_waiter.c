/* Sleeping in the kernel for callers that cannot switch to another ULT:
 * external threads, tasklets and main schedulers. Linux futex on a word of
 * the waiting OS thread's own. */
#include "bb_waiter.h"

#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

static void futex_wait(uint32_t *word, uint32_t expected)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake_all(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}

/* Not on the waiter's stack: the waker's futex wake comes after its store, so
 * the waiter may have returned by then, and a wake on a dead frame reads
 * memory that is gone (valgrind says so) and may hit a later wait's word. An
 * OS thread that waits does nothing else, so one word per thread is enough;
 * a stale wake on it is a spurious one, which every wait loop tolerates. */
static __thread bb_os_waiter this_thread_waiter __attribute__((tls_model("initial-exec")));

bb_os_waiter *bb_os_waiter_arm(void)
{
    bb_store_relaxed(&this_thread_waiter.signaled, 0u);
    return &this_thread_waiter;
}

void bb_os_waiter_wait(bb_os_waiter *w)
{
    while (!bb_load_acquire(&w->signaled))
        futex_wait(&w->signaled, 0); /* returns at once if already signaled */
}

/* FUTEX_WAIT_BITSET takes an absolute deadline; with FUTEX_CLOCK_REALTIME it
 * is on the clock of ABT_cond_timedwait's abstime. */
bool bb_os_waiter_wait_until(bb_os_waiter *w, const struct timespec *deadline)
{
    while (!bb_load_acquire(&w->signaled)) {
        long r = syscall(SYS_futex, &w->signaled, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME,
                         0, deadline, NULL, FUTEX_BITSET_MATCH_ANY);
        if (r != 0 && errno != EAGAIN && errno != EINTR)
            return bb_load_acquire(&w->signaled) != 0; /* timed out (or a bad deadline) */
    }
    return true;
}

void bb_os_waiter_signal(bb_os_waiter *w)
{
    /* The waiter may return as soon as it sees the store; its word stays. */
    bb_store_release(&w->signaled, 1u);
    futex_wake_all(&w->signaled);
}
