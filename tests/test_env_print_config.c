/* ABT_PRINT_CONFIG (or ABT_ENV_PRINT_CONFIG) = a true value prints the
 * configuration to stdout during ABT_init, reflecting the other variables
 * (ABT_THREAD_STACKSIZE, ABT_SCHED_STACKSIZE, ABT_MAX_NUM_XSTREAMS,
 * ABT_MEM_MAX_NUM_STACKS, ABT_MEM_MAX_NUM_DESCS); false values and unset
 * print nothing; nested ABT_init prints nothing. */
#include "bb_test.h"

static char out[65536];

/* Run ABT_init with stdout redirected into `out`; returns the length. */
static size_t init_captured(void)
{
    return bb_test_init_captured(out, sizeof(out));
}

static size_t cycle(void)
{
    size_t len = init_captured();
    CHECK_OK(ABT_finalize());
    return len;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    unsetenv("ABT_PRINT_CONFIG");
    unsetenv("ABT_ENV_PRINT_CONFIG");
    CHECK_EQ(cycle(), 0);

    setenv("ABT_THREAD_STACKSIZE", "40960", 1);
    setenv("ABT_SCHED_STACKSIZE", "1048576", 1);
    setenv("ABT_MAX_NUM_XSTREAMS", "4093", 1);
    setenv("ABT_MEM_MAX_NUM_STACKS", "2560", 1);
    setenv("ABT_MEM_MAX_NUM_DESCS", "8192", 1);
    setenv("ABT_PRINT_CONFIG", "1", 1);
    size_t len = cycle();
    CHECK(len > 0);
    CHECK(strstr(out, "40960") != NULL);
    CHECK(strstr(out, "1048576") != NULL);
    CHECK(strstr(out, "4093") != NULL);
    CHECK(strstr(out, "2560") != NULL);
    CHECK(strstr(out, "8192") != NULL);

    const char *yes[] = {"yes", "TRUE", "on", "y"};
    for (int i = 0; i < 4; i++) {
        setenv("ABT_PRINT_CONFIG", yes[i], 1);
        CHECK(cycle() > 0);
    }
    const char *no[] = {"0", "no", "false", "OFF", "n", "maybe"};
    for (int i = 0; i < 6; i++) {
        setenv("ABT_PRINT_CONFIG", no[i], 1);
        CHECK_EQ(cycle(), 0);
    }

    unsetenv("ABT_PRINT_CONFIG");
    setenv("ABT_ENV_PRINT_CONFIG", "yes", 1);
    CHECK(cycle() > 0);
    setenv("ABT_PRINT_CONFIG", "no", 1); /* ABT_ wins */
    CHECK_EQ(cycle(), 0);

    /* Only the outermost init prints. */
    setenv("ABT_PRINT_CONFIG", "1", 1);
    CHECK(init_captured() > 0);
    CHECK_EQ(init_captured(), 0);
    CHECK_OK(ABT_finalize());
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
