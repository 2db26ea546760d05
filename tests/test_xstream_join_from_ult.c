/* A ULT blocked in ABT_xstream_join does not block its own ES: other ULTs on
 * that ES keep running while it waits. Here the joined ES's work can only
 * finish after another ULT on the joiner's ES has run. The same holds for
 * ABT_xstream_free. */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int gate;
static atomic_int finished;
static int join_ret = -1, free_ret = -1;

static void waiter(void *arg)
{
    (void)arg;
    while (!atomic_load(&gate))
        ABT_thread_yield();
    atomic_fetch_add(&finished, 1);
}

static void opener(void *arg)
{
    (void)arg;
    atomic_store(&gate, 1);
}

static void joiner(void *arg)
{
    join_ret = ABT_xstream_join(*(ABT_xstream *)arg);
}

static void freer(void *arg)
{
    free_ret = ABT_xstream_free((ABT_xstream *)arg);
}

static void run_case(ABT_pool main_pool, void (*fn)(void *))
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    atomic_store(&gate, 0);
    atomic_store(&finished, 0);
    CHECK_OK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, NULL));
    ABT_thread j, o;
    /* The joiner runs first on the primary ES; the opener only after it. */
    CHECK_OK(ABT_thread_create(main_pool, fn, &es, ABT_THREAD_ATTR_NULL, &j));
    CHECK_OK(ABT_thread_create(main_pool, opener, NULL, ABT_THREAD_ATTR_NULL, &o));
    CHECK_OK(ABT_thread_free(&j));
    CHECK_OK(ABT_thread_free(&o));
    CHECK_EQ(atomic_load(&finished), 1);
    if (fn == joiner)
        CHECK_OK(ABT_xstream_free(&es));
    else
        CHECK(es == ABT_XSTREAM_NULL);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));
    run_case(main_pool, joiner);
    CHECK_EQ(join_ret, ABT_SUCCESS);
    run_case(main_pool, freer);
    CHECK_EQ(free_ret, ABT_SUCCESS);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
