/* Small stack sizes. Argobots enforces no minimum, but a ULT on less than a
 * page cannot even call printf safely, so bobbin documents a 4 KiB minimum
 * (README, "Where bobbin deliberately differs"): smaller sizes given to
 * ABT_thread_attr_set_stacksize / set_stack are ABT_ERR_INV_ARG and leave
 * the attribute unchanged; exactly 4 KiB, runtime-allocated or the user's,
 * is accepted and a ULT runs on it. */
#include "bb_test.h"

static int ran;

static void tiny(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    size_t size = 0;

    /* Below the minimum: refused, the attribute keeps its value. */
    CHECK_ERR(ABT_thread_attr_set_stacksize(attr, 2048), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_attr_set_stacksize(attr, 0), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_thread_attr_get_stacksize(attr, &size));
    CHECK_EQ(size, 16384);
    static char too_small[2048] __attribute__((aligned(16)));
    CHECK_ERR(ABT_thread_attr_set_stack(attr, too_small, sizeof(too_small)), ABT_ERR_INV_ARG);

    /* At the minimum: accepted, and ULTs run on it on both ESs. */
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 4096));
    CHECK_OK(ABT_thread_attr_get_stacksize(attr, &size));
    CHECK_EQ(size, 4096);
    ABT_thread t1, t2;
    CHECK_OK(ABT_thread_create(pool0, tiny, NULL, attr, &t1));
    CHECK_OK(ABT_thread_create(pool1, tiny, NULL, attr, &t2));
    CHECK_OK(ABT_thread_get_stacksize(t1, &size));
    CHECK_EQ(size, 4096);
    CHECK_OK(ABT_thread_free(&t1));
    CHECK_OK(ABT_thread_free(&t2));
    CHECK_EQ(ran, 2);

    static char small[4096] __attribute__((aligned(16)));
    CHECK_OK(ABT_thread_attr_set_stack(attr, small, sizeof(small)));
    CHECK_OK(ABT_thread_create(pool1, tiny, NULL, attr, &t1));
    CHECK_OK(ABT_thread_free(&t1));
    CHECK_EQ(ran, 3);

    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
