/* x86-64: what the portable code needs from the CPU besides context
 * switching. Chosen by the build (CMakeLists.txt), like the switch itself. */
#ifndef BB_ARCH_H
#define BB_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Tell the CPU we are spinning: saves power and frees the sibling
 * hyper-thread. */
static inline void bb_cpu_relax(void)
{
    __builtin_ia32_pause();
}

/* `*word += delta` for an integer that one thread at a time writes (its
 * owner, or the holder of its lock) while others may read it: one add to
 * memory, where the compiler makes a relaxed atomic store a load, an add and
 * a store. An aligned store is single-copy atomic on x86-64, so a reader sees
 * the old value or the new one. A macro, for 32- and 64-bit counters. The
 * suffix is spelled out per width (the other width's branch is dead code):
 * clang (14) does not know GCC's `%z` operand modifier and refused to build
 * the library with it. */
#define bb_owned_add(word, delta)                                                   \
    do {                                                                            \
        _Static_assert(sizeof(*(word)) == 8 || sizeof(*(word)) == 4,                \
                       "bb_owned_add: a 32- or 64-bit counter");                    \
        if (sizeof(*(word)) == 8)                                                   \
            __asm__ __volatile__("addq %1, %0"                                      \
                                 : "+m"(*(word))                                    \
                                 : "er"((uint64_t)(__typeof__(*(word)))(delta)));   \
        else                                                                        \
            __asm__ __volatile__("addl %1, %0"                                      \
                                 : "+m"(*(word))                                    \
                                 : "ir"((uint32_t)(__typeof__(*(word)))(delta)));   \
    } while (0)

/* `++*word % 256 == 0` for a counter as bb_owned_add's: one add to its
 * low byte and a branch on the carry, which is the case where the byte
 * wrapped (rare), and only then the carry into the rest of the word. A
 * reader on another thread may see the word 256 short for that moment. */
static inline bool bb_owned_inc_wraps_byte(uint64_t *word)
{
    bool wrapped;
    __asm__ __volatile__("addb $1, %0" : "+m"(*(unsigned char *)word), "=@ccc"(wrapped));
    if (__builtin_expect(wrapped, 0))
        bb_owned_add(word, 256);
    return wrapped;
}

/* `--*word == 0` for a word that only its owner touches: one subtract to
 * memory and its flags, where the compiler loads, subtracts and stores. */
static inline bool bb_owned_dec_is_zero(unsigned *word)
{
    bool zero;
    __asm__ __volatile__("subl $1, %0" : "+m"(*word), "=@ccz"(zero));
    return zero;
}

/* Whether a byte that other threads may write atomically is nonzero now: a
 * relaxed atomic load and its test in one compare, where the compiler loads,
 * then tests. A load with no ordering, hidden from ThreadSanitizer, which
 * has nothing to check in it. */
static inline bool bb_byte_nonzero(const unsigned char *byte)
{
    bool nonzero;
    __asm__ __volatile__("cmpb $0, %1" : "=@ccnz"(nonzero) : "m"(*byte));
    return nonzero;
}

/* Whether a byte that other threads may write atomically is nonzero, read
 * by a read-modify-write that leaves it as it is (an atomic or of 0 with
 * acquire and release): it sees every write of the byte before it, and the
 * caller's earlier writes are seen by whoever changes the byte after it.
 * One locked or to memory and its flags, where the compiler would loop on
 * a compare-and-swap to get the old value. */
static inline bool bb_byte_nonzero_rmw(unsigned char *byte)
{
    bool nonzero;
    __asm__ __volatile__("lock orb $0, %1" : "=@ccnz"(nonzero), "+m"(*byte) : : "memory");
    return nonzero;
}

/* Whether a word that other threads may write atomically equals `value`
 * now: as bb_byte_nonzero, a relaxed load and its compare in one. */
static inline bool bb_word_equals(const uint64_t *word, uint64_t value)
{
    bool equal;
    __asm__ __volatile__("cmpq %2, %1" : "=@ccz"(equal) : "m"(*word), "er"(value));
    return equal;
}

/* Whether a 32-bit word that other threads may write atomically has any
 * bit of `mask` set now: as bb_byte_nonzero, one test on memory. */
static inline bool bb_bits_any(const uint32_t *word, uint32_t mask)
{
    bool any;
    __asm__ __volatile__("testl %2, %1" : "=@ccnz"(any) : "m"(*word), "ir"(mask));
    return any;
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
