/* Joining a ULT that yields many times: the joiner (the primary ULT on the
 * same ES, and a ULT on another ES) returns only after every iteration ran,
 * and the ESs keep interleaving the yielding ULTs meanwhile. */
#include "bb_test.h"

#define NUM_YIELDS 5000

static int iters[4];

static void yielder(void *arg)
{
    int idx = (int)(intptr_t)arg;
    for (int i = 0; i < NUM_YIELDS; i++) {
        __atomic_fetch_add(&iters[idx], 1, __ATOMIC_RELAXED);
        ABT_thread_yield();
    }
}

static ABT_thread remote_target;
static int remote_join_ret = -1, remote_seen = -1;

static void joiner(void *arg)
{
    (void)arg;
    remote_join_ret = ABT_thread_join(remote_target);
    remote_seen = __atomic_load_n(&iters[2], __ATOMIC_RELAXED);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(30);
    ABT_xstream es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    ABT_xstream self_es;
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    /* Two yielders on the primary ES; the primary ULT joins the first. */
    ABT_thread a, b;
    CHECK_OK(ABT_thread_create(pool0, yielder, (void *)(intptr_t)0, ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_create(pool0, yielder, (void *)(intptr_t)1, ABT_THREAD_ATTR_NULL, &b));
    CHECK_OK(ABT_thread_join(a));
    CHECK_EQ(iters[0], NUM_YIELDS);
    /* b was interleaved with a: it made progress while a was yielding. */
    CHECK(iters[1] >= NUM_YIELDS - 2);
    CHECK_OK(ABT_thread_free(&b));
    CHECK_EQ(iters[1], NUM_YIELDS);
    CHECK_OK(ABT_thread_free(&a));

    /* A ULT on the secondary ES joins a yielder on the primary ES. */
    ABT_thread j;
    CHECK_OK(ABT_thread_create(pool0, yielder, (void *)(intptr_t)2, ABT_THREAD_ATTR_NULL,
                               &remote_target));
    CHECK_OK(ABT_thread_create(pool1, joiner, NULL, ABT_THREAD_ATTR_NULL, &j));
    CHECK_OK(ABT_thread_free(&j)); /* the primary ULT blocks here; yielder runs */
    CHECK_EQ(remote_join_ret, ABT_SUCCESS);
    CHECK_EQ(remote_seen, NUM_YIELDS);
    CHECK_OK(ABT_thread_free(&remote_target));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
