/*
 * Watching the library's futex calls, for tests that check what it asks
 * the kernel for. The test executable defines syscall() here: the dynamic
 * linker finds the executable's definition first, for libabt.so too (the
 * library makes its futex calls through syscall(), never inline). Include
 * it in exactly one translation unit, define
 *
 *   static bool on_futex(long args[6], long *result);
 *
 * before including it, and call futex_watch_init() first in main.
 * on_futex sees the arguments of each futex call (uaddr, op, val, timeout,
 * uaddr2, val3) and returns true if it answered the call itself (its
 * return value in *result, errno set), false to pass it on to the kernel.
 */
#ifndef FUTEX_WATCH_UTIL_H
#define FUTEX_WATCH_UTIL_H

#include <dlfcn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/syscall.h>

#include "bb_test.h"

static bool on_futex(long args[6], long *result);

static long (*futex_watch_real_syscall)(long, ...);

long syscall(long nr, ...)
{
    long a[6];
    va_list ap;
    va_start(ap, nr);
    for (int i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    long result;
    if (nr == SYS_futex && on_futex(a, &result))
        return result;
    return futex_watch_real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static inline void futex_watch_init(void)
{
    futex_watch_real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
    CHECK(futex_watch_real_syscall != NULL);
}

#endif
