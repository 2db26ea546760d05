/* A call that really uses a given amount of stack, for the tests of which
 * stack code runs on: 1 KiB frames that the compiler can neither drop nor
 * turn into a loop. */
#ifndef STACK_USE_UTIL_H
#define STACK_USE_UTIL_H

static int stack_use_level(int level, int kib)
{
    volatile char frame[1024];
    frame[0] = (char)level;
    frame[sizeof(frame) - 1] = (char)level;
    if (level == kib)
        return kib;
    return stack_use_level(level + 1, kib) +
           (frame[0] == frame[sizeof(frame) - 1] ? 0 : 1000); /* not a tail call */
}

/* Uses about `kib` KiB of stack; returns `kib`. */
static inline int use_stack_kib(int kib)
{
    return stack_use_level(1, kib);
}

#endif
