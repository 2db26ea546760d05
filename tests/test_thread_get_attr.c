/* ABT_thread_get_attr returns a new attribute object (distinct on every
 * call, to be freed by the caller) that describes the ULT: its stack size and
 * the lowest address of its stack. Changing the returned attribute does not
 * change the ULT. A tasklet gives ABT_ERR_INV_THREAD (1.x), a NULL handle
 * ABT_ERR_INV_THREAD. */
#include "bb_test.h"

static ABT_thread_attr from_inside;
static int inside_ret = -1;
static uintptr_t inside_local;

static void body(void *arg)
{
    (void)arg;
    volatile int local = 0;
    inside_local = (uintptr_t)&local;
    ABT_thread self;
    ABT_self_get_thread(&self);
    inside_ret = ABT_thread_get_attr(self, &from_inside);
}

static void noop(void *arg)
{
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    ABT_pool pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 98304));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool1, body, NULL, attr, &t));
    CHECK_OK(ABT_thread_join(t));

    ABT_thread_attr a1 = ABT_THREAD_ATTR_NULL, a2 = ABT_THREAD_ATTR_NULL;
    CHECK_OK(ABT_thread_get_attr(t, &a1));
    CHECK_OK(ABT_thread_get_attr(t, &a2));
    CHECK(a1 != ABT_THREAD_ATTR_NULL);
    CHECK(a1 != a2);
    CHECK(a1 != attr);
    void *addr = NULL;
    size_t size = 0;
    CHECK_OK(ABT_thread_attr_get_stack(a1, &addr, &size));
    CHECK_EQ(size, 98304);
    void *saddr = NULL;
    size_t ssize = 0;
    CHECK_OK(ABT_thread_get_stack(t, &saddr, &ssize));
    CHECK(addr == saddr);
    CHECK(addr != NULL);
    CHECK(inside_local >= (uintptr_t)addr && inside_local < (uintptr_t)addr + size);
    CHECK_OK(inside_ret);
    CHECK_OK(ABT_thread_attr_get_stacksize(from_inside, &size));
    CHECK_EQ(size, 98304);

    /* Changing a returned attribute leaves the ULT alone. */
    CHECK_OK(ABT_thread_attr_set_stacksize(a1, 16384));
    CHECK_OK(ABT_thread_get_stacksize(t, &size));
    CHECK_EQ(size, 98304);
    CHECK_OK(ABT_thread_attr_get_stacksize(a2, &size));
    CHECK_EQ(size, 98304);

    /* The returned attribute is usable to create another ULT. */
    ABT_thread t2;
    CHECK_OK(ABT_thread_attr_set_stack(a2, NULL, 98304));
    CHECK_OK(ABT_thread_create(pool1, noop, NULL, a2, &t2));
    CHECK_OK(ABT_thread_get_stacksize(t2, &size));
    CHECK_EQ(size, 98304);
    CHECK_OK(ABT_thread_free(&t2));

    CHECK_OK(ABT_thread_attr_free(&a1));
    CHECK_OK(ABT_thread_attr_free(&a2));
    CHECK_OK(ABT_thread_attr_free(&from_inside));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_thread_free(&t));

    /* Default ULT. */
    CHECK_OK(ABT_thread_create(pool1, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_get_attr(t, &a1));
    CHECK_OK(ABT_thread_attr_get_stacksize(a1, &size));
    CHECK_EQ(size, 16384);
    CHECK_OK(ABT_thread_attr_free(&a1));
    CHECK_OK(ABT_thread_free(&t));

    /* Errors. */
    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, noop, NULL, &tk));
    CHECK_ERR(ABT_thread_get_attr(tk, &a1), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_task_free(&tk));
    CHECK_ERR(ABT_thread_get_attr(ABT_THREAD_NULL, &a1), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_attr(ABT_TASK_NULL, &a1), ABT_ERR_INV_THREAD);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
