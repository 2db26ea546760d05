/* ABT_thread_attr_*: defaults (no stack address, 16384-byte stack),
 * set/get of stack and size, set_stacksize keeps a user stack address,
 * set_stack(NULL, n) drops it, a stack address that is not 8-byte aligned is
 * ABT_ERR_INV_ARG, every routine refuses ABT_THREAD_ATTR_NULL with
 * ABT_ERR_INV_THREAD_ATTR, and free clears the handle. */
#include "bb_test.h"

static void cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(argc, argv));

    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK(attr != ABT_THREAD_ATTR_NULL);
    void *addr = (void *)0x10;
    size_t size = 0;
    CHECK_OK(ABT_thread_attr_get_stack(attr, &addr, &size));
    CHECK(addr == NULL);
    CHECK_EQ(size, 16384);
    size = 0;
    CHECK_OK(ABT_thread_attr_get_stacksize(attr, &size));
    CHECK_EQ(size, 16384);

    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 1 << 20));
    CHECK_OK(ABT_thread_attr_get_stacksize(attr, &size));
    CHECK_EQ(size, 1 << 20);
    CHECK_OK(ABT_thread_attr_get_stack(attr, &addr, &size));
    CHECK(addr == NULL);
    CHECK_EQ(size, 1 << 20);

    static char stack[32768] __attribute__((aligned(64)));
    CHECK_OK(ABT_thread_attr_set_stack(attr, stack, sizeof(stack)));
    CHECK_OK(ABT_thread_attr_get_stack(attr, &addr, &size));
    CHECK(addr == stack);
    CHECK_EQ(size, sizeof(stack));
    /* Changing only the size keeps the address. */
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 16384));
    CHECK_OK(ABT_thread_attr_get_stack(attr, &addr, &size));
    CHECK(addr == stack);
    CHECK_EQ(size, 16384);
    /* 8-byte alignment is enough. */
    CHECK_OK(ABT_thread_attr_set_stack(attr, stack + 8, sizeof(stack) - 8));
    CHECK_OK(ABT_thread_attr_get_stack(attr, &addr, &size));
    CHECK(addr == stack + 8);
    /* Misaligned address: refused, attribute unchanged. */
    CHECK_ERR(ABT_thread_attr_set_stack(attr, stack + 3, 16384), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_attr_set_stack(attr, stack + 4, 16384), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_thread_attr_get_stack(attr, &addr, &size));
    CHECK(addr == stack + 8);
    CHECK_EQ(size, sizeof(stack) - 8);
    /* NULL address: back to a runtime-allocated stack of the given size. */
    CHECK_OK(ABT_thread_attr_set_stack(attr, NULL, 65536));
    CHECK_OK(ABT_thread_attr_get_stack(attr, &addr, &size));
    CHECK(addr == NULL);
    CHECK_EQ(size, 65536);

    CHECK_OK(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    CHECK_OK(ABT_thread_attr_set_migratable(attr, ABT_TRUE));
    CHECK_OK(ABT_thread_attr_set_callback(attr, cb, (void *)0x1));
    CHECK_OK(ABT_thread_attr_set_callback(attr, NULL, NULL));

    /* NULL attribute. */
    CHECK_ERR(ABT_thread_attr_set_stack(ABT_THREAD_ATTR_NULL, stack, sizeof(stack)),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_get_stack(ABT_THREAD_ATTR_NULL, &addr, &size),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_set_stacksize(ABT_THREAD_ATTR_NULL, 16384),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_get_stacksize(ABT_THREAD_ATTR_NULL, &size),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_set_callback(ABT_THREAD_ATTR_NULL, cb, NULL),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_thread_attr_set_migratable(ABT_THREAD_ATTR_NULL, ABT_TRUE),
              ABT_ERR_INV_THREAD_ATTR);
    ABT_thread_attr null_attr = ABT_THREAD_ATTR_NULL;
    CHECK_ERR(ABT_thread_attr_free(&null_attr), ABT_ERR_INV_THREAD_ATTR);

    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK(attr == ABT_THREAD_ATTR_NULL);

    /* Several live attributes are independent. */
    ABT_thread_attr a1, a2;
    CHECK_OK(ABT_thread_attr_create(&a1));
    CHECK_OK(ABT_thread_attr_create(&a2));
    CHECK(a1 != a2);
    CHECK_OK(ABT_thread_attr_set_stacksize(a1, 131072));
    CHECK_OK(ABT_thread_attr_get_stacksize(a2, &size));
    CHECK_EQ(size, 16384);
    CHECK_OK(ABT_thread_attr_free(&a1));
    CHECK_OK(ABT_thread_attr_free(&a2));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
