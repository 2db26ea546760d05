/* Before ABT_init (and again after the last ABT_finalize) every ABT_xstream_*
 * routine returns ABT_ERR_UNINITIALIZED, creation routines clear their output
 * handle first, and ABT_xstream_equal still works. NULL handles are used
 * where a handle is needed and the initialization check comes first; never
 * valid ones where a NULL handle is checked first (run_unit,
 * set_main_sched). */
#include "bb_test.h"

#define POISON_XSTREAM ((ABT_xstream)(void *)0x1234)

static void check_all(void)
{
    ABT_xstream xs = POISON_XSTREAM;
    CHECK_ERR(ABT_xstream_create(ABT_SCHED_NULL, &xs), ABT_ERR_UNINITIALIZED);
    CHECK(xs == ABT_XSTREAM_NULL);
    xs = POISON_XSTREAM;
    CHECK_ERR(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 0, NULL, ABT_SCHED_CONFIG_NULL, &xs),
              ABT_ERR_UNINITIALIZED);
    CHECK(xs == ABT_XSTREAM_NULL);
    xs = POISON_XSTREAM;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 3, &xs), ABT_ERR_UNINITIALIZED);
    CHECK(xs == ABT_XSTREAM_NULL);

    ABT_xstream null_xs = ABT_XSTREAM_NULL;
    CHECK_ERR(ABT_xstream_free(&null_xs), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_join(ABT_XSTREAM_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_revive(ABT_XSTREAM_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_exit(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_cancel(ABT_XSTREAM_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_self(&xs), ABT_ERR_UNINITIALIZED);
    int rank = 77;
    CHECK_ERR(ABT_xstream_self_rank(&rank), ABT_ERR_UNINITIALIZED);
    CHECK_EQ(rank, 77); /* not written on error */
    CHECK_ERR(ABT_xstream_set_rank(ABT_XSTREAM_NULL, 1), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_get_rank(ABT_XSTREAM_NULL, &rank), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_set_main_sched_basic(ABT_XSTREAM_NULL, ABT_SCHED_DEFAULT, 0, NULL),
              ABT_ERR_UNINITIALIZED);
    ABT_sched sched;
    CHECK_ERR(ABT_xstream_get_main_sched(ABT_XSTREAM_NULL, &sched), ABT_ERR_UNINITIALIZED);
    ABT_pool pools[1];
    CHECK_ERR(ABT_xstream_get_main_pools(ABT_XSTREAM_NULL, 1, pools), ABT_ERR_UNINITIALIZED);
    ABT_xstream_state state;
    CHECK_ERR(ABT_xstream_get_state(ABT_XSTREAM_NULL, &state), ABT_ERR_UNINITIALIZED);
    int num = 0;
    CHECK_ERR(ABT_xstream_get_num(&num), ABT_ERR_UNINITIALIZED);
    ABT_bool b;
    CHECK_ERR(ABT_xstream_is_primary(ABT_XSTREAM_NULL, &b), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_check_events(ABT_SCHED_NULL), ABT_ERR_UNINITIALIZED);
    /* Non-NULL handles: these check NULL ones before the runtime. */
    CHECK_ERR(ABT_xstream_run_unit((ABT_unit)(void *)0x1234, (ABT_pool)(void *)0x1234),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_set_main_sched(POISON_XSTREAM, ABT_SCHED_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_set_cpubind(ABT_XSTREAM_NULL, 0), ABT_ERR_UNINITIALIZED);
    int cpu;
    CHECK_ERR(ABT_xstream_get_cpubind(ABT_XSTREAM_NULL, &cpu), ABT_ERR_UNINITIALIZED);
    int cpus[2] = {0, 1}, ncpus;
    CHECK_ERR(ABT_xstream_set_affinity(ABT_XSTREAM_NULL, 1, cpus), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_xstream_get_affinity(ABT_XSTREAM_NULL, 2, cpus, &ncpus),
              ABT_ERR_UNINITIALIZED);

    /* The *_equal routines work in any context. */
    ABT_bool eq = ABT_FALSE;
    CHECK_OK(ABT_xstream_equal(ABT_XSTREAM_NULL, ABT_XSTREAM_NULL, &eq));
    CHECK_EQ(eq, ABT_TRUE);
    CHECK_OK(ABT_xstream_equal(ABT_XSTREAM_NULL, POISON_XSTREAM, &eq));
    CHECK_EQ(eq, ABT_FALSE);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_all();
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_finalize());
    check_all();
    BB_TEST_END();
}
