/*
 * Capturing what an ABT_info_* printer writes, for the test_info_* tests.
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

#endif
