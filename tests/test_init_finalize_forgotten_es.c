/* bobbin: ABT_finalize joins and frees secondary ESs the user did not free
 * (running ones with pending work, and joined ones), running their remaining
 * work first; the runtime can then be initialized again. */
#include "bb_test.h"
#include <stdatomic.h>

#define N 100

static atomic_int done;

static void work(void *arg)
{
    (void)arg;
    ABT_thread_yield();
    usleep(50);
    atomic_fetch_add(&done, 1);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    for (int round = 0; round < 3; round++) {
        atomic_store(&done, 0);
        CHECK_OK(ABT_init(0, NULL));
        ABT_xstream es[3];
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
        CHECK_OK(ABT_xstream_join(es[2]));
        for (int i = 0; i < 2; i++) {
            ABT_pool pool;
            CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pool));
            for (int k = 0; k < N; k++)
                CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, NULL));
        }
        CHECK_OK(ABT_finalize());
        CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
        CHECK_EQ(atomic_load(&done), 2 * N);
    }
    BB_TEST_END();
}
