/* ABT_INFO_QUERY_KIND_ENABLED_VALGRIND answers whether the library is
 * "configured to be Valgrind friendly" (Argobots' --enable-valgrind: ULT
 * stacks registered with valgrind). Every bobbin build is: CMakeLists.txt
 * requires valgrind's header, and the README ("Debugging") says each ULT
 * stack is registered with memcheck before it first runs. The query
 * answered ABT_FALSE, so a program that asks before running its valgrind
 * checks skipped them. Under valgrind, a ULT's stack is checked to be
 * usable without an error (--error-exitcode makes memcheck's errors fail). */
#include "bb_test.h"

static int ran;

static void touch_stack(void *arg)
{
    volatile char buf[4096];
    for (size_t i = 0; i < sizeof(buf); i++)
        buf[i] = (char)i;
    ran = buf[100] + (arg != NULL);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_bool friendly = ABT_FALSE;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_VALGRIND, &friendly));
    CHECK_EQ(friendly, ABT_TRUE);

    ABT_xstream xs;
    ABT_pool pool;
    CHECK_OK(ABT_self_get_xstream(&xs));
    CHECK_OK(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, touch_stack, &ran, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 101);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
