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

/* The floating-point control state a context switch carries (MXCSR and
 * the x87 control word, as ctx_sysv.S saves them): a restarted scheduler
 * takes back its own instead of keeping that of the ULT it left. */
typedef struct {
    unsigned int mxcsr;
    unsigned short x87_cw;
} bb_fpu_control;

static inline void bb_fpu_control_save(bb_fpu_control *c)
{
    __asm__ __volatile__("stmxcsr %0\n\tfnstcw %1" : "=m"(c->mxcsr), "=m"(c->x87_cw));
}

static inline void bb_fpu_control_load(const bb_fpu_control *c)
{
    __asm__ __volatile__("ldmxcsr %0\n\tfldcw %1" ::"m"(c->mxcsr), "m"(c->x87_cw));
}

#endif
