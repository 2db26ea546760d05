/*
 * bb_fprintf: fprintf without glibc's detour for an unbuffered stream
 * (stderr, or any stream set to _IONBF), which formats into a buffer of
 * BUFSIZ (8 KiB) on the caller's stack. On a small ULT stack that is more
 * than there is, and a frame that large can step over the guard page below
 * the stack into the stack below it, which it then corrupts in silence.
 * For such a stream the text is formatted into a small buffer here (the
 * heap for a longer one) and written by one fwrite, which an unbuffered
 * stream passes straight to write(2): about 3 KiB of stack in all, where
 * vfprintf into a buffered stream, still the way for one, takes 2.4.
 */
#include <stdarg.h>
#include <stdio_ext.h>
#include <stdlib.h>

#include "bb_print.h"

enum { SMALL_TEXT = 256 };

static int write_all(FILE *fp, const char *text, int len)
{
    return fwrite(text, 1, (size_t)len, fp) == (size_t)len ? len : -1;
}

/* The text in a small buffer, written at once. */
static int format_then_write(FILE *fp, const char *fmt, va_list ap)
{
    char small[SMALL_TEXT];
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, sizeof(small), fmt, ap);
    if (len < SMALL_TEXT) { /* an error too */
        va_end(again);
        return len < 0 ? len : write_all(fp, small, len);
    }
    char *large = malloc((size_t)len + 1);
    int written = -1;
    /* A second pass that makes a different length (an argument changed
     * meanwhile) would leave bytes of the buffer unwritten: not printed. */
    if (large && vsnprintf(large, (size_t)len + 1, fmt, again) == len)
        written = write_all(fp, large, len);
    va_end(again);
    free(large);
    return written;
}

/* A stream with a buffer of its own (__fbufsize > 1: an unbuffered one has
 * a buffer of 1 byte, one not written yet none) formats into it. */
int bb_vfprintf(FILE *fp, const char *fmt, va_list ap)
{
    if (__fbufsize(fp) > 1)
        return vfprintf(fp, fmt, ap);
    return format_then_write(fp, fmt, ap);
}

int bb_fprintf(FILE *fp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = bb_vfprintf(fp, fmt, ap);
    va_end(ap);
    return len;
}
