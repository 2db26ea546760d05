/* ABT_THREAD_STACKSIZE / ABT_ENV_THREAD_STACKSIZE set the default ULT stack
 * size (seen through ABT_thread_get_stacksize and a new attribute), read at
 * every full ABT_init: ABT_ wins over ABT_ENV_, values are rounded up to a
 * multiple of 64, values below 4096 are clamped to 4096, garbage falls back
 * to the 16 KiB default. The stack really is that large. */
#include "bb_test.h"

static size_t seen_size;

static void measure(void *arg)
{
    (void)arg;
    ABT_thread self;
    if (ABT_thread_self(&self) == ABT_SUCCESS)
        ABT_thread_get_stacksize(self, &seen_size);
}

static char sink; /* written by ULTs on several ESs: atomic */
static void deep(void *arg)
{
    /* Use most of a 64 KiB stack. */
    volatile char buf[48 * 1024];
    for (size_t i = 0; i < sizeof(buf); i += 512)
        buf[i] = (char)i;
    __atomic_store_n(&sink, buf[(size_t)arg % sizeof(buf)], __ATOMIC_RELAXED);
}

static size_t default_stacksize(void)
{
    size_t got = 0;
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, measure, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_get_stacksize(t, &got));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(seen_size, got);
    ABT_thread_attr attr;
    size_t attr_size = 0;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_get_stacksize(attr, &attr_size));
    CHECK_EQ(attr_size, got);
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_finalize());
    return got;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    unsetenv("ABT_THREAD_STACKSIZE");
    unsetenv("ABT_ENV_THREAD_STACKSIZE");
    CHECK_EQ(default_stacksize(), 16384);

    setenv("ABT_THREAD_STACKSIZE", "32768", 1);
    CHECK_EQ(default_stacksize(), 32768);

    setenv("ABT_THREAD_STACKSIZE", "20000", 1);
    CHECK_EQ(default_stacksize(), 20032);

    setenv("ABT_THREAD_STACKSIZE", "1000", 1);
    CHECK_EQ(default_stacksize(), 4096);

    setenv("ABT_THREAD_STACKSIZE", "lots", 1);
    CHECK_EQ(default_stacksize(), 16384);

    unsetenv("ABT_THREAD_STACKSIZE");
    setenv("ABT_ENV_THREAD_STACKSIZE", "65536", 1);
    CHECK_EQ(default_stacksize(), 65536);

    setenv("ABT_THREAD_STACKSIZE", "131072", 1);
    CHECK_EQ(default_stacksize(), 131072); /* ABT_ wins */

    /* 64 KiB stacks are usable to the end, on the primary and another ES. */
    setenv("ABT_THREAD_STACKSIZE", "65536", 1);
    unsetenv("ABT_ENV_THREAD_STACKSIZE");
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pp, ep;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pp));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &ep));
    ABT_thread t[8];
    for (long i = 0; i < 8; i++)
        CHECK_OK(ABT_thread_create(i % 2 ? ep : pp, deep, (void *)i, ABT_THREAD_ATTR_NULL,
                                   &t[i]));
    for (int i = 0; i < 8; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    unsetenv("ABT_THREAD_STACKSIZE");
    BB_TEST_END();
}
