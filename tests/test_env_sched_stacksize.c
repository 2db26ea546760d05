/* ABT_SCHED_STACKSIZE (and ABT_ENV_SCHED_STACKSIZE) is read at each ABT_init
 * (visible in the ABT_PRINT_CONFIG output, rounded up to 64, ABT_ wins); the
 * runtime works with a small and with a large scheduler stack. */
#include "bb_test.h"

static char out[65536];

static size_t init_captured(void)
{
    return bb_test_init_captured(out, sizeof(out));
}

static int count;
static void work(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    count++;
}

static void workload(void)
{
    ABT_xstream primary, es;
    ABT_pool pp, ep;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pp));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &ep));
    count = 0;
    ABT_thread t[20];
    for (int i = 0; i < 20; i++)
        CHECK_OK(ABT_thread_create(pp, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < 20; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(count, 20);
    CHECK_OK(ABT_xstream_free(&es));
    (void)ep;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    setenv("ABT_PRINT_CONFIG", "1", 1);

    setenv("ABT_SCHED_STACKSIZE", "65536", 1);
    CHECK(init_captured() > 0);
    CHECK(strstr(out, "65536") != NULL);
    workload();
    CHECK_OK(ABT_finalize());

    setenv("ABT_SCHED_STACKSIZE", "3000001", 1); /* rounds up to 3000064 */
    CHECK(init_captured() > 0);
    CHECK(strstr(out, "3000064") != NULL);
    workload();
    CHECK_OK(ABT_finalize());

    unsetenv("ABT_SCHED_STACKSIZE");
    setenv("ABT_ENV_SCHED_STACKSIZE", "8388608", 1);
    CHECK(init_captured() > 0);
    CHECK(strstr(out, "8388608") != NULL);
    workload();
    CHECK_OK(ABT_finalize());

    setenv("ABT_SCHED_STACKSIZE", "2097152", 1);
    CHECK(init_captured() > 0);
    CHECK(strstr(out, "2097152") != NULL);
    CHECK(strstr(out, "8388608") == NULL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
