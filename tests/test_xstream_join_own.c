/* A ULT joins the ES it runs on, as Argobots allows (a ULT in a shared or
 * work-stealing pool cannot know where it runs): ABT_xstream_join succeeds
 * once that ES has terminated, and the ULT goes on on another ES that
 * serves its pool. Where no other ES could take it (a private pool, or a
 * shared pool only this ES serves), the join fails with
 * ABT_ERR_INV_XSTREAM instead of hanging; ABT_xstream_free of the caller's
 * own ES fails as before, as in Argobots. */
#include "bb_test.h"

typedef struct {
    ABT_xstream joined;
    int ret, free_ret;
    ABT_xstream after;
    ABT_xstream_state state;
} outcome;

static void join_own(void *arg)
{
    outcome *o = arg;
    CHECK_OK(ABT_self_get_xstream(&o->joined));
    ABT_xstream x = o->joined;
    o->free_ret = ABT_xstream_free(&x);
    o->ret = ABT_xstream_join(o->joined);
    CHECK_OK(ABT_self_get_xstream(&o->after));
    CHECK_OK(ABT_xstream_get_state(o->joined, &o->state));
}

/* Two ESs serve one shared pool; the ULT runs on one of them and joins it. */
static void check_shared(void)
{
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    ABT_xstream es[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL,
                                          &es[i]));
    outcome o = {.ret = -1};
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, join_own, &o, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(o.free_ret, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(o.ret, ABT_SUCCESS);
    CHECK(o.joined == es[0] || o.joined == es[1]);
    CHECK(o.after != o.joined);
    CHECK(o.after == es[0] || o.after == es[1]);
    CHECK_EQ(o.state, ABT_XSTREAM_STATE_TERMINATED);
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
}

/* Only the joined ES could run the ULT again: the join fails at once. */
static void check_refused(ABT_pool_access access)
{
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, access, ABT_TRUE, &pool));
    outcome o = {.ret = -1};
    ABT_thread t; /* pushed before the ES owns a private pool */
    CHECK_OK(ABT_thread_create(pool, join_own, &o, ABT_THREAD_ATTR_NULL, &t));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(o.free_ret, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(o.ret, ABT_ERR_INV_XSTREAM);
    CHECK(o.joined == es);
    CHECK(o.after == es);
    CHECK_EQ(o.state, ABT_XSTREAM_STATE_RUNNING);
    CHECK_OK(ABT_xstream_free(&es));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    for (int round = 0; round < 20; round++)
        check_shared();
    check_refused(ABT_POOL_ACCESS_PRIV);
    check_refused(ABT_POOL_ACCESS_MPMC);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
