/*
 * fprintf for everything the library prints (src/info/fprintf.c).
 */
#ifndef BB_PRINT_H
#define BB_PRINT_H

#include <stdarg.h>
#include <stdio.h>

/* As fprintf, in about 3 KiB of the caller's stack at most (fprintf.c has
 * the measurements), whatever the stream's buffering: the library prints
 * from ULTs, whose stacks may be small. */
int bb_fprintf(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int bb_vfprintf(FILE *fp, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif
