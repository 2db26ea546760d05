/*
 * Capturing what an ABT_info_* printer writes, for the test_info_* tests,
 * and reading its "label : value" lines.
 */
#ifndef CAPTURE_UTIL_H
#define CAPTURE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_test.h"

/* Runs `call` (which uses `fp`) into a memory stream; it must succeed and
 * must have flushed a newline-terminated text before we close the stream.
 * `text` gets the malloc'd output (free it). */
#define CAPTURE(text, call)                                                                \
    do {                                                                                   \
        char *buf_ = NULL;                                                                 \
        size_t len_ = 0;                                                                   \
        FILE *fp = open_memstream(&buf_, &len_);                                           \
        if (!fp) {                                                                         \
            BB_FAIL_AT("%s", "open_memstream failed");                                    \
            (text) = strdup("");                                                           \
            break;                                                                         \
        }                                                                                  \
        CHECK_OK(call);                                                                    \
        if (len_ == 0)                                                                     \
            BB_FAIL_AT("%s printed nothing or did not flush", #call);                      \
        else if (buf_[len_ - 1] != '\n')                                                   \
            BB_FAIL_AT("%s: output does not end in a newline", #call);                     \
        fclose(fp);                                                                        \
        (text) = buf_;                                                                     \
    } while (0)

/* `call` (using `fp`) fails with `code` and prints nothing. */
#define CHECK_FAILS_SILENTLY(call, code)                                                   \
    do {                                                                                   \
        char *buf_ = NULL;                                                                 \
        size_t len_ = 0;                                                                   \
        FILE *fp = open_memstream(&buf_, &len_);                                           \
        if (!fp) {                                                                         \
            BB_FAIL_AT("%s", "open_memstream failed");                                    \
            break;                                                                         \
        }                                                                                  \
        CHECK_ERR(call, code);                                                             \
        fflush(fp);                                                                        \
        CHECK_EQ(len_, 0);                                                                 \
        fclose(fp);                                                                        \
        free(buf_);                                                                        \
    } while (0)

/* ---- reading it ---- */

/* The values of every "label : value" line whose label is exactly `label`
 * (leading spaces ignored), in order; returns how many (at most max). */
static inline int fields(const char *text, const char *label, char vals[][80], int max)
{
    int n = 0;
    size_t ll = strlen(label);
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t linelen = end ? (size_t)(end - line) : strlen(line);
        const char *p = line;
        while (*p == ' ')
            p++;
        if (strncmp(p, label, ll) == 0) {
            const char *q = p + ll;
            while (*q == ' ')
                q++;
            if (*q == ':' && q < line + linelen) {
                q++;
                while (*q == ' ')
                    q++;
                size_t vl = (size_t)(line + linelen - q);
                if (vl > 79)
                    vl = 79;
                if (n < max) {
                    memcpy(vals[n], q, vl);
                    vals[n][vl] = '\0';
                }
                n++;
            }
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

#endif
