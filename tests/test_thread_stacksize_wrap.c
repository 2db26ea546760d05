/* A stack size within two pages of SIZE_MAX, whose length rounded up to
 * pages and with its guard page would wrap around to a few bytes, is an
 * allocation failure: ABT_thread_create returns ABT_ERR_MEM with the handle
 * cleared, nothing runs, and the next ULT of the default size still works.
 * (Before the fix such a ULT got a stack of one guard page and died of a
 * "stack overflow" at its start.) */
#include <stdint.h>
#include "bb_test.h"

static int ran;

static void body(void *arg)
{
    (void)arg;
    ran++;
}

static void try_size(ABT_pool pool, size_t size)
{
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, size));
    ABT_thread t = (ABT_thread)(intptr_t)0x10;
    CHECK_ERR(ABT_thread_create(pool, body, NULL, attr, &t), ABT_ERR_MEM);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_OK(ABT_thread_attr_free(&attr));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    long page = sysconf(_SC_PAGESIZE);
    try_size(pool, SIZE_MAX);
    try_size(pool, SIZE_MAX - 100);
    try_size(pool, SIZE_MAX - (size_t)page);
    try_size(pool, SIZE_MAX - 2 * (size_t)page + 1);
    CHECK_EQ(ran, 0);

    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
