/* ABT_MAX_NUM_XSTREAMS is only an expected maximum: with it set to 2, six
 * secondary ESs can still be created (ranks 1..6), all of them run work, and
 * a rank far beyond the maximum is accepted. */
#include "bb_test.h"
#include <stdatomic.h>

#define NES 6

static atomic_int ran[NES + 1];

static void work(void *arg)
{
    (void)arg;
    int rank = -1;
    if (ABT_self_get_xstream_rank(&rank) == ABT_SUCCESS && rank >= 0 && rank <= NES)
        atomic_fetch_add(&ran[rank], 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    setenv("ABT_MAX_NUM_XSTREAMS", "2", 1);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[NES];
    for (int i = 0; i < NES; i++) {
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        int rank = -1;
        CHECK_OK(ABT_xstream_get_rank(es[i], &rank));
        CHECK_EQ(rank, i + 1);
    }
    int num = 0;
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, NES + 1);
    ABT_thread t[NES];
    for (int i = 0; i < NES; i++) {
        ABT_pool pool;
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pool));
        CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    }
    for (int i = 0; i < NES; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    for (int i = 1; i <= NES; i++)
        CHECK_EQ(atomic_load(&ran[i]), 1);
    ABT_xstream far;
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 500, &far));
    CHECK_OK(ABT_xstream_free(&far));
    for (int i = 0; i < NES; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    unsetenv("ABT_MAX_NUM_XSTREAMS");
    BB_TEST_END();
}
