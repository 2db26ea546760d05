/* ABT_error_get_str:
 *  - every code 0..57 gives exactly the name of its macro (the table below is
 *    built from the macros themselves) and *len == strlen of that name;
 *    exactly len + 1 bytes are written (the NUL, nothing after it);
 *  - str and len are each optional: str NULL fills only len, len NULL fills
 *    only str, both NULL is a successful no-op;
 *  - -1, 58 and other out-of-range codes -> ABT_ERR_OTHER, and neither the
 *    buffer nor *len is touched;
 *  - the same answers before ABT_init, while initialized and after
 *    ABT_finalize. */
#include "bb_test.h"
#include <limits.h>

#define E(code) {code, #code}

static const struct {
    int code;
    const char *name;
} table[] = {
    E(ABT_SUCCESS),
    E(ABT_ERR_UNINITIALIZED),
    E(ABT_ERR_MEM),
    E(ABT_ERR_OTHER),
    E(ABT_ERR_INV_XSTREAM),
    E(ABT_ERR_INV_XSTREAM_RANK),
    E(ABT_ERR_INV_XSTREAM_BARRIER),
    E(ABT_ERR_INV_SCHED),
    E(ABT_ERR_INV_SCHED_KIND),
    E(ABT_ERR_INV_SCHED_PREDEF),
    E(ABT_ERR_INV_SCHED_TYPE),
    E(ABT_ERR_INV_SCHED_CONFIG),
    E(ABT_ERR_INV_POOL),
    E(ABT_ERR_INV_POOL_KIND),
    E(ABT_ERR_INV_POOL_ACCESS),
    E(ABT_ERR_INV_UNIT),
    E(ABT_ERR_INV_THREAD),
    E(ABT_ERR_INV_THREAD_ATTR),
    E(ABT_ERR_INV_TASK),
    E(ABT_ERR_INV_KEY),
    E(ABT_ERR_INV_MUTEX),
    E(ABT_ERR_INV_MUTEX_ATTR),
    E(ABT_ERR_INV_COND),
    E(ABT_ERR_INV_RWLOCK),
    E(ABT_ERR_INV_EVENTUAL),
    E(ABT_ERR_INV_FUTURE),
    E(ABT_ERR_INV_BARRIER),
    E(ABT_ERR_INV_TIMER),
    E(ABT_ERR_INV_QUERY_KIND),
    E(ABT_ERR_XSTREAM),
    E(ABT_ERR_XSTREAM_STATE),
    E(ABT_ERR_XSTREAM_BARRIER),
    E(ABT_ERR_SCHED),
    E(ABT_ERR_SCHED_CONFIG),
    E(ABT_ERR_POOL),
    E(ABT_ERR_UNIT),
    E(ABT_ERR_THREAD),
    E(ABT_ERR_TASK),
    E(ABT_ERR_KEY),
    E(ABT_ERR_MUTEX),
    E(ABT_ERR_MUTEX_LOCKED),
    E(ABT_ERR_COND),
    E(ABT_ERR_COND_TIMEDOUT),
    E(ABT_ERR_RWLOCK),
    E(ABT_ERR_EVENTUAL),
    E(ABT_ERR_FUTURE),
    E(ABT_ERR_BARRIER),
    E(ABT_ERR_TIMER),
    E(ABT_ERR_MIGRATION_TARGET),
    E(ABT_ERR_MIGRATION_NA),
    E(ABT_ERR_MISSING_JOIN),
    E(ABT_ERR_FEATURE_NA),
    E(ABT_ERR_INV_TOOL_CONTEXT),
    E(ABT_ERR_INV_ARG),
    E(ABT_ERR_SYS),
    E(ABT_ERR_CPUID),
    E(ABT_ERR_INV_POOL_CONFIG),
    E(ABT_ERR_INV_POOL_USER_DEF),
};

#define NCODES ((int)(sizeof(table) / sizeof(table[0])))
#define CANARY 0xA5
#define POISON_LEN ((size_t)0xdeadbeef)

static int untouched(const unsigned char *buf, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (buf[i] != CANARY)
            return 0;
    return 1;
}

/* The table covers 0..57, each value once (so the test itself is right). */
static void check_table(void)
{
    CHECK_EQ(NCODES, 58);
    int seen[58] = {0};
    for (int i = 0; i < NCODES; i++) {
        CHECK(table[i].code >= 0 && table[i].code < 58);
        if (table[i].code >= 0 && table[i].code < 58)
            seen[table[i].code]++;
    }
    for (int c = 0; c < 58; c++)
        CHECK_EQ(seen[c], 1);
}

static void check_all(void)
{
    unsigned char buf[128];
    for (int i = 0; i < NCODES; i++) {
        const char *want = table[i].name;
        size_t wlen = strlen(want);

        /* Both outputs. */
        memset(buf, CANARY, sizeof(buf));
        size_t len = POISON_LEN;
        CHECK_OK(ABT_error_get_str(table[i].code, (char *)buf, &len));
        CHECK_EQ(len, wlen);
        if (strcmp((char *)buf, want) != 0)
            BB_FAIL_AT("code %d: got \"%.64s\", expected \"%s\"", table[i].code, (char *)buf,
                       want);
        CHECK(untouched(buf, wlen + 1, sizeof(buf)));

        /* Only the length. */
        len = POISON_LEN;
        CHECK_OK(ABT_error_get_str(table[i].code, NULL, &len));
        CHECK_EQ(len, wlen);

        /* Only the string. */
        memset(buf, CANARY, sizeof(buf));
        CHECK_OK(ABT_error_get_str(table[i].code, (char *)buf, NULL));
        CHECK(strcmp((char *)buf, want) == 0);
        CHECK(untouched(buf, wlen + 1, sizeof(buf)));

        /* Neither. */
        CHECK_OK(ABT_error_get_str(table[i].code, NULL, NULL));
    }

    /* The two-call idiom: length first, then a buffer of exactly len + 1. */
    size_t need = 0;
    CHECK_OK(ABT_error_get_str(ABT_ERR_INV_POOL_USER_DEF, NULL, &need));
    char *exact = malloc(need + 1);
    CHECK(exact != NULL);
    if (exact) {
        CHECK_OK(ABT_error_get_str(ABT_ERR_INV_POOL_USER_DEF, exact, NULL));
        CHECK(strcmp(exact, "ABT_ERR_INV_POOL_USER_DEF") == 0);
        free(exact);
    }

    /* Out of range: ABT_ERR_OTHER, nothing written. */
    const int bad[] = {-1, 58, 59, 100, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        memset(buf, CANARY, sizeof(buf));
        size_t len = POISON_LEN;
        CHECK_ERR(ABT_error_get_str(bad[i], (char *)buf, &len), ABT_ERR_OTHER);
        CHECK_EQ(len, POISON_LEN);
        CHECK(untouched(buf, 0, sizeof(buf)));
        CHECK_ERR(ABT_error_get_str(bad[i], NULL, &len), ABT_ERR_OTHER);
        CHECK_EQ(len, POISON_LEN);
        CHECK_ERR(ABT_error_get_str(bad[i], (char *)buf, NULL), ABT_ERR_OTHER);
        CHECK(untouched(buf, 0, sizeof(buf)));
        CHECK_ERR(ABT_error_get_str(bad[i], NULL, NULL), ABT_ERR_OTHER);
    }
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_table();
    check_all(); /* before ABT_init */
    CHECK_OK(ABT_init(0, NULL));
    check_all();
    CHECK_OK(ABT_finalize());
    check_all(); /* after ABT_finalize */
    BB_TEST_END();
}
