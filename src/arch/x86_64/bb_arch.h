/* x86-64: what the portable code needs from the CPU besides context
 * switching. Chosen by the build (CMakeLists.txt), like the switch itself. */
#ifndef BB_ARCH_H
#define BB_ARCH_H

/* Tell the CPU we are spinning: saves power and frees the sibling
 * hyper-thread. */
static inline void bb_cpu_relax(void)
{
    __builtin_ia32_pause();
}

#endif
