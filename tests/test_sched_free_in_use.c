/* ABT_sched_free of a scheduler in use as the main scheduler of an ES
 * (running, terminated, or the primary ES) is ABT_ERR_SCHED and leaves the
 * handle alone; the ES keeps working. A never-attached scheduler is freed. */
#include "bb_test.h"

static int ran;
static void work(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_RELAXED);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    ABT_sched ps, h;
    CHECK_OK(ABT_xstream_get_main_sched(primary, &ps));
    h = ps;
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED);
    CHECK(h == ps);

    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &s));
    CHECK_OK(ABT_xstream_create(s, &es));
    h = s;
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED);
    CHECK(h == s);
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 1);

    CHECK_OK(ABT_xstream_join(es));
    CHECK_ERR(ABT_sched_free(&h), ABT_ERR_SCHED);
    CHECK(h == s);
    CHECK_OK(ABT_xstream_revive(es));
    CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 2);
    CHECK_OK(ABT_xstream_free(&es)); /* the automatic scheduler goes with it */

    ABT_sched lone;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &lone));
    CHECK_OK(ABT_sched_free(&lone));
    CHECK(lone == ABT_SCHED_NULL);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
