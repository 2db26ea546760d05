/* What a signal handler reads of the context it interrupted (x86-64 Linux).
 * Only the fault handler includes it (src/os/linux/os_overflow.c). */
#ifndef BB_ARCH_SIGNAL_H
#define BB_ARCH_SIGNAL_H

#include <stdint.h>
#include <ucontext.h>

/* The interrupted stack pointer. */
static inline uintptr_t bb_arch_signal_sp(const void *uctx)
{
    return (uintptr_t)((const ucontext_t *)uctx)->uc_mcontext.gregs[REG_RSP];
}

#endif
