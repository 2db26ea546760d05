/* Attributes are copied into the ULT: ABT_thread_attr_set_migratable(FALSE)
 * makes a non-migratable ULT (default TRUE), changing or freeing the
 * attribute after creation does not affect the ULT, and an attribute with a
 * migration callback is accepted by creation. */
#include "bb_test.h"

static void cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
}

static void body(void *arg)
{
    (void)arg;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es;
    ABT_pool pool0;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));

    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 40960));
    ABT_thread fixed, normal;
    CHECK_OK(ABT_thread_create(pool0, body, NULL, attr, &fixed));
    CHECK_OK(ABT_thread_attr_set_migratable(attr, ABT_TRUE)); /* after: no effect on `fixed` */
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_thread_create(pool0, body, NULL, ABT_THREAD_ATTR_NULL, &normal));

    ABT_bool m = ABT_TRUE;
    CHECK_OK(ABT_thread_is_migratable(fixed, &m));
    CHECK_EQ(m, ABT_FALSE);
    m = ABT_FALSE;
    CHECK_OK(ABT_thread_is_migratable(normal, &m));
    CHECK_EQ(m, ABT_TRUE);
    size_t size = 0;
    CHECK_OK(ABT_thread_get_stacksize(fixed, &size));
    CHECK_EQ(size, 40960);

    int token = 7;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_callback(attr, cb, &token));
    ABT_thread with_cb;
    CHECK_OK(ABT_thread_create(pool0, body, NULL, attr, &with_cb));
    CHECK_OK(ABT_thread_attr_free(&attr));
    ABT_thread_attr got;
    CHECK_OK(ABT_thread_get_attr(fixed, &got));
    CHECK(got != ABT_THREAD_ATTR_NULL);
    CHECK_OK(ABT_thread_attr_get_stacksize(got, &size));
    CHECK_EQ(size, 40960);
    CHECK_OK(ABT_thread_attr_free(&got));

    CHECK_OK(ABT_thread_free(&fixed));
    CHECK_OK(ABT_thread_free(&normal));
    CHECK_OK(ABT_thread_free(&with_cb));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
