/* Regression (round 12b, configuration fuzzer): a numeric environment
 * variable that holds only blanks is not a number, so it falls back to the
 * default (README, "Environment variables"). strtoull finds no digits there,
 * but the skip of trailing blanks moved its end pointer past the blanks, so
 * " " passed as 0 and was clamped to the minimum: 4 KiB ULT and scheduler
 * stacks, an event check after every unit, a cache of 2 stacks, and
 * ABT_SCHED_SLEEP_NSEC=" " read as 0 where any other value that is no
 * number was refused. */
#include "bb_test.h"

static uint64_t query_u64(ABT_info_query_kind kind)
{
    uint64_t v = 0;
    CHECK_OK(ABT_info_query_config(kind, &v));
    return v;
}

static size_t query_size(ABT_info_query_kind kind)
{
    size_t v = 0;
    CHECK_OK(ABT_info_query_config(kind, &v));
    return v;
}

static ABT_bool query_bool(ABT_info_query_kind kind)
{
    ABT_bool v = ABT_FALSE;
    CHECK_OK(ABT_info_query_config(kind, &v));
    return v;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    static const char *const names[] = {"THREAD_STACKSIZE", "SCHED_STACKSIZE",
                                        "SCHED_EVENT_FREQ", "SCHED_SLEEP_NSEC"};
    char key[64];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(key, sizeof(key), "ABT_ENV_%s", names[i]);
        unsetenv(key);
    }
    static const char *const blanks[] = {" ", "\t", "  \n ", ""};
    for (size_t b = 0; b < sizeof(blanks) / sizeof(blanks[0]); b++) {
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            snprintf(key, sizeof(key), "ABT_%s", names[i]);
            setenv(key, blanks[b], 1);
        }
        CHECK_OK(ABT_init(0, NULL));
        size_t thread_size = query_size(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE);
        size_t sched_size = query_size(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE);
        uint64_t freq = query_u64(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ);
        uint64_t nsec = query_u64(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC);
        /* The defaults: 16 KiB, 4 MiB, 50, and Argobots' 100 ns with the
         * sleep off, as for any value that is not a number. */
        if (thread_size != 16384 || sched_size != 4u << 20 || freq != 50 || nsec != 100 ||
            query_bool(ABT_INFO_QUERY_KIND_ENABLED_SCHED_SLEEP) != ABT_FALSE)
            BB_FAIL_AT("blank value %zu: thread stack %zu, sched stack %zu, event freq %llu, "
                       "sleep %llu ns",
                       b, thread_size, sched_size, (unsigned long long)freq,
                       (unsigned long long)nsec);
        CHECK_OK(ABT_finalize());
    }
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(key, sizeof(key), "ABT_%s", names[i]);
        unsetenv(key);
    }
    BB_TEST_END();
}
