/* Ranks: new ESs take the smallest free rank; create_with_rank uses the given
 * one, refusing a rank in use or a negative one (ABT_ERR_INV_XSTREAM_RANK,
 * output cleared); set_rank moves an ES and frees its old rank, refuses the
 * primary ES, negative and taken ranks; ranks beyond ABT_MAX_NUM_XSTREAMS are
 * fine. */
#include "bb_test.h"

static int rank_of(ABT_xstream xs)
{
    int r = -1;
    CHECK_OK(ABT_xstream_get_rank(xs, &r));
    return r;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));

    ABT_xstream a, b, c, d, e;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &a));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &b));
    CHECK_EQ(rank_of(a), 1);
    CHECK_EQ(rank_of(b), 2);
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, &c));
    CHECK_EQ(rank_of(c), 5);
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &d));
    CHECK_EQ(rank_of(d), 3);

    /* Taken, primary's and negative ranks. */
    ABT_xstream x = (ABT_xstream)(void *)0x1;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, &x), ABT_ERR_INV_XSTREAM_RANK);
    CHECK(x == ABT_XSTREAM_NULL);
    x = (ABT_xstream)(void *)0x1;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 0, &x), ABT_ERR_INV_XSTREAM_RANK);
    CHECK(x == ABT_XSTREAM_NULL);
    x = (ABT_xstream)(void *)0x1;
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, -1, &x), ABT_ERR_INV_XSTREAM_RANK);
    CHECK(x == ABT_XSTREAM_NULL);
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, -100, &x), ABT_ERR_INV_XSTREAM_RANK);
    int num = 0;
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 5);

    /* A freed rank is reused by the next automatic rank. */
    CHECK_OK(ABT_xstream_free(&a));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &a));
    CHECK_EQ(rank_of(a), 1);

    /* set_rank. */
    CHECK_OK(ABT_xstream_set_rank(b, 2)); /* same rank: no-op */
    CHECK_EQ(rank_of(b), 2);
    CHECK_OK(ABT_xstream_set_rank(b, 7));
    CHECK_EQ(rank_of(b), 7);
    CHECK_ERR(ABT_xstream_set_rank(b, 5), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_ERR(ABT_xstream_set_rank(b, 0), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_ERR(ABT_xstream_set_rank(b, -3), ABT_ERR_INV_XSTREAM_RANK);
    CHECK_EQ(rank_of(b), 7);
    CHECK_ERR(ABT_xstream_set_rank(primary, 9), ABT_ERR_INV_XSTREAM);
    CHECK_EQ(rank_of(primary), 0);
    /* Rank 2 is free again, and 7 is taken. */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &e));
    CHECK_EQ(rank_of(e), 2);
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 7, &x), ABT_ERR_INV_XSTREAM_RANK);

    /* A rank far above the expected maximum only grows the table. */
    CHECK_OK(ABT_xstream_set_rank(e, 1000));
    CHECK_EQ(rank_of(e), 1000);
    ABT_xstream f;
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 2000, &f));
    CHECK_EQ(rank_of(f), 2000);

    CHECK_OK(ABT_xstream_free(&f));
    CHECK_OK(ABT_xstream_free(&a));
    CHECK_OK(ABT_xstream_free(&b));
    CHECK_OK(ABT_xstream_free(&c));
    CHECK_OK(ABT_xstream_free(&d));
    CHECK_OK(ABT_xstream_free(&e));
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 1);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
