/*
 * For the tests of the threading techniques (src/include/bb_technique.h):
 * each test runs its body once per technique within one process, choosing
 * it itself with ABT_THREAD_TECHNIQUE before ABT_init, so that it does not
 * depend on the environment it was started in (scripts/test.sh runs the
 * suite under each technique anyway).
 *
 *   for (int t = 0; t < TQ_NUM; t++) {
 *       tq_init(t);            setenv + ABT_init, checks the query kinds
 *       ...
 *       CHECK_OK(ABT_finalize());
 *   }
 *
 * tq_techniques[t] says what technique t is; tq_name is its name for
 * messages. ULT code reports failures with UCHECK (an atomic count, safe on
 * any ES), which main folds into the result with tq_collect_ult_failures.
 */
#ifndef TECHNIQUE_UTIL_H
#define TECHNIQUE_UTIL_H

#include <stdint.h>
#include "bb_test.h"

#define TQ_NUM 8

static const struct {
    const char *name;
    int lazy;   /* a default-size ULT gets its stack at its first run */
    int roc;    /* a ULT that does not deviate returns to its parent */
} tq_techniques[TQ_NUM] = {
    {"full", 0, 0}, {"full-l", 1, 0}, {"roc", 0, 1}, {"roc-l", 1, 1},
    {"ss", 0, 1},   {"ss-l", 1, 1},   {"sc", 1, 1},  {"auto", 1, 1}};

static const char *tq_name = "?";
static int tq_ult_failures;

/* A failed check in ULT code (any ES): counted atomically, printed with the
 * technique. */
#define UCHECK(cond)                                                                       \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: [%s] CHECK(%s) is false\n", __FILE__, __LINE__,        \
                    tq_name, #cond);                                                       \
            __atomic_fetch_add(&tq_ult_failures, 1, __ATOMIC_RELAXED);                     \
        }                                                                                  \
    } while (0)

#define UCHECK_OK(call)                                                                    \
    do {                                                                                   \
        int uret_ = (call);                                                                \
        if (uret_ != ABT_SUCCESS) {                                                        \
            fprintf(stderr, "%s:%d: [%s] %s returned %d\n", __FILE__, __LINE__, tq_name,   \
                    #call, uret_);                                                         \
            __atomic_fetch_add(&tq_ult_failures, 1, __ATOMIC_RELAXED);                     \
        }                                                                                  \
    } while (0)

static inline void tq_collect_ult_failures(void)
{
    int n = __atomic_exchange_n(&tq_ult_failures, 0, __ATOMIC_RELAXED);
    bb_test_failures += n;
}

static inline uint64_t tq_query(int kind)
{
    uint64_t v = 0; /* ABT_bool is an int: the rest stays zero */
    CHECK_OK(ABT_info_query_config((ABT_info_query_kind)kind, &v));
    return v;
}

/* ABT_init under technique t; checks that it is the one in force. */
static inline void tq_init(int t)
{
    tq_name = tq_techniques[t].name;
    unsetenv("ABT_ENV_THREAD_TECHNIQUE");
    setenv("ABT_THREAD_TECHNIQUE", tq_name, 1);
    CHECK_OK(ABT_init(0, NULL));
    if (tq_query(ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC) != (uint64_t)tq_techniques[t].lazy ||
        tq_query(ABT_INFO_QUERY_KIND_DYNAMIC_PROMOTION) != (uint64_t)tq_techniques[t].roc)
        BB_FAIL_AT("ABT_THREAD_TECHNIQUE=%s is not in force", tq_name);
}

/* The calling ULT's stack, as ABT_thread_get_stack reports it. */
static inline void *tq_self_stack(size_t *size)
{
    ABT_thread self;
    void *addr = NULL;
    size_t sz = 0;
    if (ABT_self_get_thread(&self) != ABT_SUCCESS ||
        ABT_thread_get_stack(self, &addr, &sz) != ABT_SUCCESS)
        return NULL;
    if (size)
        *size = sz;
    return addr;
}

/* Whether `p` lies in the calling ULT's stack. */
static inline int tq_on_own_stack(const volatile void *p)
{
    size_t size = 0;
    uintptr_t lo = (uintptr_t)tq_self_stack(&size);
    return lo != 0 && (uintptr_t)p >= lo && (uintptr_t)p < lo + size;
}

#endif
