/* A ULT created with a 1 MiB stack (ABT_thread_attr_set_stacksize) can
 * recurse about 800 KiB deep - with yields at the deepest point - on the
 * primary ES and on a secondary ES, and every frame's data survives. */
#include "bb_test.h"

#define STACK (1u << 20)
#define FRAME 1024
#define DEPTH 700 /* ~ 700 KiB of frames plus overhead */

static int yields_at_bottom = 3;

static __attribute__((noinline)) long recurse(int n)
{
    volatile unsigned char buf[FRAME];
    for (int i = 0; i < FRAME; i += 64)
        buf[i] = (unsigned char)(n + i);
    long below;
    if (n == 0) {
        for (int i = 0; i < yields_at_bottom; i++)
            ABT_thread_yield();
        below = 0;
    } else {
        below = recurse(n - 1);
    }
    long mine = 0;
    for (int i = 0; i < FRAME; i += 64)
        mine += (buf[i] == (unsigned char)(n + i));
    return below + mine;
}

static long results[4];

static void body(void *arg)
{
    int idx = (int)(intptr_t)arg;
    results[idx] = recurse(DEPTH);
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
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, STACK));
    ABT_thread t[4];
    for (int i = 0; i < 4; i++)
        CHECK_OK(ABT_thread_create((i & 1) ? pool1 : pool0, body, (void *)(intptr_t)i, attr,
                                   &t[i]));
    CHECK_OK(ABT_thread_attr_free(&attr));
    for (int i = 0; i < 4; i++) {
        size_t size = 0;
        CHECK_OK(ABT_thread_get_stacksize(t[i], &size));
        CHECK_EQ(size, STACK);
        CHECK_OK(ABT_thread_free(&t[i]));
    }
    const long want = (long)(DEPTH + 1) * (FRAME / 64);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(results[i], want);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
