/* Any other CPU: portable fallbacks for what the runtime needs from the CPU
 * besides context switching (which comes from ucontext there). */
#ifndef BB_ARCH_H
#define BB_ARCH_H

/* A spin-wait hint; without a known instruction, just keep the compiler
 * from hoisting the loop's loads. */
static inline void bb_cpu_relax(void)
{
    __asm__ __volatile__("" ::: "memory");
}

#endif
