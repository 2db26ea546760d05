/* Ranks of execution streams go up to 2^20 - 1 (the table of ESs is indexed
 * by rank): ABT_xstream_create_with_rank and ABT_xstream_set_rank with a
 * larger rank, up to INT_MAX, return ABT_ERR_INV_XSTREAM_RANK at once
 * (before the fix the table's growth looped forever), leave no ES behind
 * and keep the old rank; the largest rank works. */
#include <limits.h>
#include "bb_test.h"

#define MAX_RANK ((1 << 20) - 1)

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));

    ABT_xstream es = (ABT_xstream)(intptr_t)0x10;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, INT_MAX, &es), ABT_ERR_INV_XSTREAM_RANK);
    CHECK(es == ABT_XSTREAM_NULL);
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, MAX_RANK + 1, &es),
              ABT_ERR_INV_XSTREAM_RANK);
    int num = -1;
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 1);

    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, MAX_RANK, &es));
    int rank = -1;
    CHECK_OK(ABT_xstream_get_rank(es, &rank));
    CHECK_EQ(rank, MAX_RANK);
    CHECK_ERR(ABT_xstream_set_rank(es, INT_MAX), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_ERR(ABT_xstream_set_rank(es, 1 << 30), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_OK(ABT_xstream_get_rank(es, &rank));
    CHECK_EQ(rank, MAX_RANK);
    CHECK_OK(ABT_xstream_set_rank(es, 5));
    CHECK_OK(ABT_xstream_get_rank(es, &rank));
    CHECK_EQ(rank, 5);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
