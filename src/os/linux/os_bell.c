/* Doorbells (bb_bell.h) on Linux futexes. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bb_bell.h"

/* One futex wait on `b`, counted in `sleepers` so that a ringer knows to
 * make the wake-up call. The increment is a full barrier: a ringer either
 * bumped `seq` before it (and the kernel sees the change) or reads a
 * non-zero `sleepers` after. */
static void futex_sleep(bb_bell *b, int op, uint32_t seen, const struct timespec *timeout)
{
    __atomic_fetch_add(&b->sleepers, 1u, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, &b->seq, op, seen, timeout, NULL, FUTEX_BITSET_MATCH_ANY);
    __atomic_fetch_sub(&b->sleepers, 1u, __ATOMIC_RELEASE);
}

static struct timespec timespec_of(double s)
{
    struct timespec ts;
    ts.tv_sec = (time_t)s; /* truncates: s >= 0 */
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    return ts;
}

void bb_bell_wait(bb_bell *b, uint32_t seen, double timeout_s)
{
    /* FUTEX_WAIT's timeout is relative, on the monotonic clock. */
    struct timespec rel;
    bool bounded = timeout_s >= 0 && timeout_s < 1e9; /* longer: as good as forever */
    if (bounded)
        rel = timespec_of(timeout_s);
    futex_sleep(b, FUTEX_WAIT_PRIVATE, seen, bounded ? &rel : NULL);
}

void bb_bell_wait_until_wtime(bb_bell *b, uint32_t seen, double deadline_s)
{
    /* An absolute deadline on the real-time clock: the kernel moves the
     * wake-up when the clock is set. */
    struct timespec at = timespec_of(deadline_s > 0 ? deadline_s : 0);
    futex_sleep(b, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, seen, &at);
}

void bb_bell_ring(bb_bell *b)
{
    __atomic_fetch_add(&b->seq, 1u, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST))
        syscall(SYS_futex, &b->seq, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}
