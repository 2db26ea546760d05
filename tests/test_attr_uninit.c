/* ABT_thread_attr_* before ABT_init and after the last ABT_finalize return
 * ABT_ERR_UNINITIALIZED (checked before the attribute handle), and
 * ABT_thread_attr_create clears its output first. */
#include "bb_test.h"

static void cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
}

static void check_all(void)
{
    ABT_thread_attr attr = (ABT_thread_attr)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_attr_create(&attr), ABT_ERR_UNINITIALIZED);
    CHECK(attr == ABT_THREAD_ATTR_NULL);
    ABT_thread_attr null_attr = ABT_THREAD_ATTR_NULL;
    CHECK_ERR(ABT_thread_attr_free(&null_attr), ABT_ERR_UNINITIALIZED);
    static char stack[8192] __attribute__((aligned(16)));
    CHECK_ERR(ABT_thread_attr_set_stack(ABT_THREAD_ATTR_NULL, stack, sizeof(stack)),
              ABT_ERR_UNINITIALIZED);
    void *addr;
    size_t size;
    CHECK_ERR(ABT_thread_attr_get_stack(ABT_THREAD_ATTR_NULL, &addr, &size),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_attr_set_stacksize(ABT_THREAD_ATTR_NULL, 65536), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_attr_get_stacksize(ABT_THREAD_ATTR_NULL, &size), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_attr_set_callback(ABT_THREAD_ATTR_NULL, cb, NULL),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_attr_set_migratable(ABT_THREAD_ATTR_NULL, ABT_TRUE),
              ABT_ERR_UNINITIALIZED);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    check_all();
    CHECK_OK(ABT_init(argc, argv));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_finalize());
    check_all();
    BB_TEST_END();
}
