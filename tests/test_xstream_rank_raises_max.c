/* REFERENCE.md (ABT_xstream_create_with_rank): a rank at or beyond
 * ABT_MAX_NUM_XSTREAMS raises that maximum, as ABT_info_query_config
 * (ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS) reports: to rank + 1. Checked at the
 * boundary (rank == the maximum), beyond it, by ABT_xstream_set_rank, and
 * for a rank below it (no change). */
#include "bb_test.h"

static int max_now(void)
{
    int m = -1;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS, &m));
    return m;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    setenv("ABT_MAX_NUM_XSTREAMS", "4", 1);
    CHECK_OK(ABT_init(0, NULL));
    int m = max_now();
    CHECK_EQ(m, 4);
    ABT_xstream a, b, c;
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 2, &a)); /* below: no change */
    CHECK_EQ(max_now(), m);
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, m, &b)); /* at the maximum */
    CHECK_EQ(max_now(), m + 1);
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, m + 5, &c)); /* beyond */
    CHECK_EQ(max_now(), m + 6);
    CHECK_OK(ABT_xstream_set_rank(a, m + 6)); /* at the new maximum */
    CHECK_EQ(max_now(), m + 7);
    CHECK_OK(ABT_xstream_free(&a));
    CHECK_OK(ABT_xstream_free(&b));
    CHECK_OK(ABT_xstream_free(&c));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
