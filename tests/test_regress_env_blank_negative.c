/* Regression (round 10b, extreme values): a negative number in a numeric
 * environment variable falls back to the default (README, "Environment
 * variables"), also when blanks come before its sign. strtoull skips the
 * blanks and wraps "-1" around to ULLONG_MAX, so " -1" used to be clamped to
 * the maximum instead: 64 GiB ULT and scheduler stacks, 2^20 ESs expected,
 * 2^24 cached stacks and descriptors per ES. */
#include "bb_test.h"

static size_t query_size(ABT_info_query_kind kind)
{
    size_t v = 0;
    CHECK_OK(ABT_info_query_config(kind, &v));
    return v;
}

static unsigned query_max_xstreams(void)
{
    unsigned v = 0;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS, &v));
    return v;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    unsetenv("ABT_ENV_THREAD_STACKSIZE");
    unsetenv("ABT_ENV_SCHED_STACKSIZE");
    unsetenv("ABT_ENV_MAX_NUM_XSTREAMS");
    unsetenv("ABT_THREAD_STACKSIZE");
    unsetenv("ABT_SCHED_STACKSIZE");
    unsetenv("ABT_MAX_NUM_XSTREAMS");

    /* The defaults, without the variables. */
    CHECK_OK(ABT_init(0, NULL));
    size_t thread_default = query_size(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE);
    size_t sched_default = query_size(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE);
    unsigned xstreams_default = query_max_xstreams();
    CHECK_OK(ABT_finalize());

    static const char *const negatives[] = {"-1", " -1", "\t-4096", "  -0", " \n -65536 "};
    for (size_t i = 0; i < sizeof(negatives) / sizeof(negatives[0]); i++) {
        setenv("ABT_THREAD_STACKSIZE", negatives[i], 1);
        setenv("ABT_SCHED_STACKSIZE", negatives[i], 1);
        setenv("ABT_MAX_NUM_XSTREAMS", negatives[i], 1);
        CHECK_OK(ABT_init(0, NULL));
        size_t thread_size = query_size(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE);
        size_t sched_size = query_size(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE);
        unsigned xstreams = query_max_xstreams();
        if (thread_size != thread_default || sched_size != sched_default ||
            xstreams != xstreams_default)
            BB_FAIL_AT("\"%s\": thread stack %zu (default %zu), sched stack %zu (default %zu), "
                       "max ESs %u (default %u)",
                       negatives[i], thread_size, thread_default, sched_size, sched_default,
                       xstreams, xstreams_default);
        CHECK_OK(ABT_finalize());
    }

    /* Blanks around a valid number are still fine. */
    setenv("ABT_THREAD_STACKSIZE", "  32768 ", 1);
    unsetenv("ABT_SCHED_STACKSIZE");
    unsetenv("ABT_MAX_NUM_XSTREAMS");
    CHECK_OK(ABT_init(0, NULL));
    CHECK_EQ(query_size(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE), (size_t)32768);
    CHECK_OK(ABT_finalize());
    unsetenv("ABT_THREAD_STACKSIZE");
    BB_TEST_END();
}
