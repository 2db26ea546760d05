/* Any other CPU: portable fallbacks for what the runtime needs from the CPU
 * besides context switching (which comes from ucontext there). */
#ifndef BB_ARCH_H
#define BB_ARCH_H

#include <fenv.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A spin-wait hint; without a known instruction, just keep the compiler
 * from hoisting the loop's loads. */
static inline void bb_cpu_relax(void)
{
    __asm__ __volatile__("" ::: "memory");
}

/* `*word += delta` for an integer that one thread at a time writes (its
 * owner, or the holder of its lock) while others may read it. A macro, for
 * counters of any width. */
#define bb_owned_add(word, delta) \
    __atomic_store_n((word), *(word) + (__typeof__(*(word)))(delta), __ATOMIC_RELAXED)

/* `++*word % 256 == 0` for a counter as bb_owned_add's. */
static inline bool bb_owned_inc_wraps_byte(uint64_t *word)
{
    bb_owned_add(word, 1);
    return *word % 256 == 0;
}

/* `--*word == 0` for a word that only its owner touches. */
static inline bool bb_owned_dec_is_zero(unsigned *word)
{
    return --*word == 0;
}

/* Whether a byte that other threads may write atomically is nonzero now (a
 * relaxed atomic load). */
static inline bool bb_byte_nonzero(const unsigned char *byte)
{
    return __atomic_load_n(byte, __ATOMIC_RELAXED) != 0;
}

/* Whether a byte that other threads may write atomically is nonzero, read
 * by a read-modify-write that leaves it as it is (an atomic or of 0 with
 * acquire and release). */
static inline bool bb_byte_nonzero_rmw(unsigned char *byte)
{
    return __atomic_or_fetch(byte, (unsigned char)0, __ATOMIC_ACQ_REL) != 0;
}

/* Whether a word that other threads may write atomically equals `value`
 * now (a relaxed atomic load). */
static inline bool bb_word_equals(const uint64_t *word, uint64_t value)
{
    return __atomic_load_n(word, __ATOMIC_RELAXED) == value;
}

/* Whether a 32-bit word that other threads may write atomically has any
 * bit of `mask` set now (a relaxed atomic load). */
static inline bool bb_bits_any(const uint32_t *word, uint32_t mask)
{
    return (__atomic_load_n(word, __ATOMIC_RELAXED) & mask) != 0;
}

/* The floating-point environment a scheduler takes back where no context
 * switch restores it: after running a ULT on its own stack (SC), or when
 * it restarts from a context made on a deviating ULT (SS), which would
 * otherwise keep that ULT's rounding mode. fenv.h's whole environment (the
 * x86-64 code keeps MXCSR and the x87 control word, flags included). */
typedef struct {
    fenv_t env;
} bb_fpu_control;

static inline void bb_fpu_control_save(bb_fpu_control *c)
{
    fegetenv(&c->env);
}

static inline void bb_fpu_control_load(const bb_fpu_control *c)
{
    fesetenv(&c->env);
}

#endif
