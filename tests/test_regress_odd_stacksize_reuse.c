/* Stacks of a size that is not a multiple of 8 (ABT_thread_attr_set_stacksize
 * accepts any size from 4096 on) are kept for reuse in the per-ES lists of
 * other sizes, linked through a bb_free_item near their top. The link was
 * written at stack + size - 16, misaligned for such a size (UndefinedBehavior-
 * Sanitizer: "member access within misaligned address" in other_stack_push;
 * a fault on CPUs that trap on misaligned access). Each size is reused a few
 * times, and each ULT checks that it runs on the stack it reports. */
#include "bb_test.h"

#include <stdint.h>

static void body(void *arg)
{
    size_t want = (size_t)(uintptr_t)arg;
    volatile char local = 0;
    ABT_thread self;
    void *addr;
    size_t size;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_OK(ABT_thread_get_stack(self, &addr, &size));
    CHECK_EQ(size, want);
    CHECK((char *)&local >= (char *)addr && (char *)&local < (char *)addr + size);
    ABT_thread_yield();
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    /* Room for the portable context switch too (ucontext), which needs more
     * than a page of stack below the body. */
    const size_t sizes[] = {16385, 16387, 20003, 32769, 65536 + 9};
    for (int round = 0; round < 4; round++) {
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            ABT_thread t[3];
            CHECK_OK(ABT_thread_attr_set_stacksize(attr, sizes[i]));
            for (int k = 0; k < 3; k++)
                CHECK_OK(ABT_thread_create(pool, body, (void *)(uintptr_t)sizes[i], attr, &t[k]));
            for (int k = 0; k < 3; k++) {
                size_t got;
                CHECK_OK(ABT_thread_get_stacksize(t[k], &got));
                CHECK_EQ(got, sizes[i]);
                CHECK_OK(ABT_thread_free(&t[k]));
            }
        }
    }
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
