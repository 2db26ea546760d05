/* Doorbells (bb_bell.h) on Linux futexes. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bb_bell.h"

void bb_bell_wait(bb_bell *b, uint32_t seen, double timeout_s)
{
    struct timespec rel, *timeout = NULL;
    if (timeout_s >= 0 && timeout_s < 1e9) { /* longer: as good as forever */
        rel.tv_sec = (time_t)timeout_s; /* truncates: timeout_s >= 0 */
        rel.tv_nsec = (long)((timeout_s - (double)rel.tv_sec) * 1e9);
        timeout = &rel;
    }
    /* The increment is a full barrier: a ringer either bumped `seq` before it
     * (and the kernel sees the change) or reads a non-zero `sleepers` after. */
    __atomic_fetch_add(&b->sleepers, 1u, __ATOMIC_SEQ_CST);
    syscall(SYS_futex, &b->seq, FUTEX_WAIT_PRIVATE, seen, timeout, NULL, 0);
    __atomic_fetch_sub(&b->sleepers, 1u, __ATOMIC_RELEASE);
}

void bb_bell_ring(bb_bell *b)
{
    __atomic_fetch_add(&b->seq, 1u, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&b->sleepers, __ATOMIC_SEQ_CST))
        syscall(SYS_futex, &b->seq, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL, NULL, 0);
}
