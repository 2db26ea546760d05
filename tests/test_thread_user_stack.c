/* A ULT created with ABT_thread_attr_set_stack(attr, buf, size) really runs
 * on the user's buffer: its locals (also deep in a call chain) lie inside
 * buf, get_stack reports buf and size, and the buffer stays the user's (it
 * can be reused for a second ULT after the first is freed). */
#include "bb_test.h"

#define STACK_SIZE (64 * 1024)

struct probe {
    uintptr_t local, deep;
    void *addr;
    size_t size;
};

static __attribute__((noinline)) uintptr_t deeper(int n)
{
    volatile char buf[256];
    buf[0] = (char)n;
    if (n > 0)
        return deeper(n - 1) + (buf[0] & 0);
    uintptr_t where = (uintptr_t)&buf[0]; /* only the address, never used */
    return where;
}

static void body(void *arg)
{
    struct probe *p = arg;
    volatile int local = 42;
    p->local = (uintptr_t)&local;
    p->deep = deeper(40); /* ~10 KiB down */
    ABT_thread self;
    ABT_self_get_thread(&self);
    ABT_thread_get_stack(self, &p->addr, &p->size);
}

static int in_buf(uintptr_t a, const char *buf)
{
    return a >= (uintptr_t)buf && a < (uintptr_t)buf + STACK_SIZE;
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

    char *buf = NULL;
    CHECK_EQ(posix_memalign((void **)&buf, 64, STACK_SIZE), 0);
    memset(buf, 0, STACK_SIZE);
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stack(attr, buf, STACK_SIZE));

    ABT_pool pools[2] = {pool1, pool0};
    for (int round = 0; round < 2; round++) {
        struct probe p = {0};
        ABT_thread t;
        CHECK_OK(ABT_thread_create(pools[round], body, &p, attr, &t));
        size_t size = 0;
        CHECK_OK(ABT_thread_get_stacksize(t, &size));
        CHECK_EQ(size, STACK_SIZE);
        CHECK_OK(ABT_thread_join(t));
        CHECK(in_buf(p.local, buf));
        CHECK(in_buf(p.deep, buf));
        CHECK(p.deep < p.local); /* the stack grows down inside the buffer */
        CHECK(p.addr == buf);
        CHECK_EQ(p.size, STACK_SIZE);
        ABT_thread_attr got;
        CHECK_OK(ABT_thread_get_attr(t, &got));
        void *gaddr = NULL;
        size_t gsize = 0;
        CHECK_OK(ABT_thread_attr_get_stack(got, &gaddr, &gsize));
        CHECK(gaddr == buf);
        CHECK_EQ(gsize, STACK_SIZE);
        CHECK_OK(ABT_thread_attr_free(&got));
        CHECK_OK(ABT_thread_free(&t));
    }
    CHECK_OK(ABT_thread_attr_free(&attr));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    free(buf); /* still ours: the runtime must not have freed it */
    BB_TEST_END();
}
