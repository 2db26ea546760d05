/* ABT_thread_get_stacksize / ABT_thread_get_stack: a default ULT has a 16384
 * byte stack, a ULT created with attr_set_stacksize has that size, and a
 * ULT's locals lie inside [stackaddr, stackaddr + stacksize). Tasklets and
 * the primary ULT have no managed stack: size 0 and address NULL. Either
 * output of ABT_thread_get_stack may be NULL, not both (INV_ARG). NULL
 * handles give INV_THREAD. */
#include "bb_test.h"

struct probe {
    void *addr;
    size_t size;
    size_t size2;
    uintptr_t local;
    int ret1, ret2;
};

static void body(void *arg)
{
    struct probe *p = arg;
    volatile char local = 1;
    ABT_thread self;
    ABT_self_get_thread(&self);
    p->ret1 = ABT_thread_get_stack(self, &p->addr, &p->size);
    p->ret2 = ABT_thread_get_stacksize(self, &p->size2);
    p->local = (uintptr_t)&local;
}

static int inside(const struct probe *p)
{
    uintptr_t lo = (uintptr_t)p->addr;
    return p->addr != NULL && p->local >= lo && p->local < lo + p->size;
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

    /* Default stack. */
    struct probe pd = {0};
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool1, body, &pd, ABT_THREAD_ATTR_NULL, &t));
    size_t size = 0;
    CHECK_OK(ABT_thread_get_stacksize(t, &size));
    CHECK_EQ(size, 16384);
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(pd.ret1);
    CHECK_OK(pd.ret2);
    CHECK_EQ(pd.size, 16384);
    CHECK_EQ(pd.size2, 16384);
    CHECK(inside(&pd));
    void *addr = NULL;
    size = 0;
    CHECK_OK(ABT_thread_get_stack(t, &addr, &size)); /* same answer from outside ... */
    ABT_bool lazy = ABT_FALSE;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC, &lazy));
    CHECK(addr == (lazy ? NULL : pd.addr)); /* ... unless it gave its stack back as it ended */
    CHECK_EQ(size, 16384);
    CHECK_OK(ABT_thread_free(&t));

    /* Custom sizes through an attribute, on both ESs. */
    size_t sizes[3] = {32768, 65536, 1 << 20};
    for (int i = 0; i < 3; i++) {
        ABT_thread_attr attr;
        CHECK_OK(ABT_thread_attr_create(&attr));
        CHECK_OK(ABT_thread_attr_set_stacksize(attr, sizes[i]));
        struct probe pc = {0};
        CHECK_OK(ABT_thread_create((i & 1) ? pool0 : pool1, body, &pc, attr, &t));
        CHECK_OK(ABT_thread_attr_free(&attr)); /* the ULT keeps its own copy */
        CHECK_OK(ABT_thread_get_stacksize(t, &size));
        CHECK_EQ(size, sizes[i]);
        CHECK_OK(ABT_thread_join(t));
        CHECK_EQ(pc.size, sizes[i]);
        CHECK_EQ(pc.size2, sizes[i]);
        CHECK(inside(&pc));
        CHECK_OK(ABT_thread_free(&t));
    }

    /* Tasklet: no stack of its own. */
    ABT_task tk;
    struct probe pt = {0};
    CHECK_OK(ABT_task_create(pool1, body, &pt, &tk));
    CHECK_OK(ABT_task_join(tk));
    CHECK_OK(pt.ret1);
    CHECK_OK(pt.ret2);
    CHECK(pt.addr == NULL);
    CHECK_EQ(pt.size, 0);
    CHECK_EQ(pt.size2, 0);
    CHECK_OK(ABT_task_free(&tk));

    /* The primary ULT runs on the OS thread's stack. */
    ABT_thread primary;
    CHECK_OK(ABT_thread_self(&primary));
    size = 123;
    CHECK_OK(ABT_thread_get_stacksize(primary, &size));
    CHECK_EQ(size, 0);
    addr = (void *)0x10;
    size = 123;
    CHECK_OK(ABT_thread_get_stack(primary, &addr, &size));
    CHECK(addr == NULL);
    CHECK_EQ(size, 0);

    /* Either output may be NULL, to ask for the other alone; not both. */
    struct probe po = {0};
    CHECK_OK(ABT_thread_create(pool0, body, &po, ABT_THREAD_ATTR_NULL, &t));
    addr = NULL;
    size = 0;
    CHECK_OK(ABT_thread_get_stack(t, NULL, &size));
    CHECK_EQ(size, 16384);
    void *both_addr = (void *)0x10;
    size_t both_size = 0;
    CHECK_OK(ABT_thread_get_stack(t, &both_addr, &both_size));
    addr = (void *)0x10;
    CHECK_OK(ABT_thread_get_stack(t, &addr, NULL));
    CHECK(addr == both_addr && (addr != NULL) == !lazy); /* not run yet */
    CHECK_ERR(ABT_thread_get_stack(t, NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_thread_join(t));
    size = 0;
    CHECK_OK(ABT_thread_get_stack(t, NULL, &size));
    CHECK_EQ(size, 16384);
    CHECK_OK(ABT_thread_free(&t));

    CHECK_ERR(ABT_thread_get_stacksize(ABT_THREAD_NULL, &size), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_stack(ABT_THREAD_NULL, &addr, &size), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_stack(ABT_TASK_NULL, &addr, &size), ABT_ERR_INV_THREAD);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
