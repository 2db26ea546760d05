/* Regression: ABT_SCHED_SLEEP_NSEC=UINT64_MAX (or any huge value) made an
 * idle BASIC scheduler sleep for centuries at its first empty round: nothing
 * ends that sleep, so ABT_xstream_free of the idle ES never returned (nor did
 * a primary ULT that waited for a unit on another ES, its own ES asleep). The
 * value is now at most just under a second, as in Argobots (which keeps it in
 * tv_nsec): the query reports what is used, and the ES is freed. */
#include "bb_test.h"

static int ran;
static void note_run(void *arg)
{
    (void)arg;
    ran++;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    setenv("ABT_SCHED_SLEEP_NSEC", "18446744073709551615", 1);
    CHECK_OK(ABT_init(0, NULL));
    uint64_t nsec = 0;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC, &nsec));
    CHECK(nsec > 0 && nsec < 1000000000u);
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread t;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    usleep(20000); /* past its polling: asleep */
    CHECK_OK(ABT_thread_create(pool, note_run, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t)); /* the primary ES sleeps meanwhile */
    CHECK_EQ(ran, 1);
    usleep(20000);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
