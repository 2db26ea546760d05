/* ABT_STACK_OVERFLOW_CHECK keeps its Argobots meaning, read at ABT_init:
 * unset or "mprotect" -> guard pages while the mapping budget lasts (query
 * answer 2); "mprotect_strict" -> every stack gets one (3); anything else ->
 * none (0), with a warning unless it is "none" (test_env_unknown_values_warn).
 * ULTs work in every mode. */
#include "bb_test.h"
#include <stdlib.h>

static int ran;

static void work(void *arg)
{
    (void)arg;
    volatile char buf[2048];
    buf[0] = 1;
    ran += buf[0];
}

static void check_mode(const char *value, int expected)
{
    if (value)
        setenv("ABT_STACK_OVERFLOW_CHECK", value, 1);
    else
        unsetenv("ABT_STACK_OVERFLOW_CHECK");
    CHECK_OK(ABT_init(0, NULL));
    int mode = -1;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK, &mode));
    CHECK_EQ(mode, expected);
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ran = 0;
    ABT_thread t[8];
    for (int i = 0; i < 8; i++)
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < 8; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(ran, 8);
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_mode(NULL, 2);
    check_mode("mprotect", 2);
    check_mode("mprotect_strict", 3);
    check_mode("none", 0);
    check_mode("canary", 0);
    BB_TEST_END();
}
