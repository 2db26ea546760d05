/* What a signal handler reads of the context it interrupted: nothing on an
 * architecture bobbin has no code for (see src/arch/x86_64). Only the fault
 * handler includes it (src/os/linux/os_overflow.c). */
#ifndef BB_ARCH_SIGNAL_H
#define BB_ARCH_SIGNAL_H

#include <stdint.h>

/* The interrupted stack pointer; 0: unknown. */
static inline uintptr_t bb_arch_signal_sp(const void *uctx)
{
    (void)uctx;
    return 0;
}

#endif
