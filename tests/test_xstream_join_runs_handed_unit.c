/* ABT_xstream_join returns once the ES's scheduler has run everything, a
 * unit handed to its loop included. Under SC (where the predefined loop's
 * stack is small), tasklets run aside on the ES's big stack, together with
 * those next to them in the pool; a ULT met there is taken out of the pool
 * and handed to the loop, to run first in its next pass. A join that comes
 * meanwhile must not find the scheduler's pools drained while it holds that
 * ULT.
 *
 * A pool gets a tasklet then a ULT before ES 1 starts over it; the primary
 * ULT joins ES 1 at once. After the join both must have run, and the pool
 * must be empty. Other techniques take other paths (the test passes). */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int ran;

static void fn(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    for (int round = 0; round < 20; round++) {
        ABT_pool p;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p));
        atomic_store(&ran, 0);
        ABT_task t;
        ABT_thread u;
        CHECK_OK(ABT_task_create(p, fn, NULL, &t));
        CHECK_OK(ABT_thread_create(p, fn, NULL, ABT_THREAD_ATTR_NULL, &u));
        ABT_xstream es;
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, ABT_SCHED_CONFIG_NULL, &es));
        CHECK_OK(ABT_xstream_join(es));
        size_t size = 99;
        CHECK_OK(ABT_pool_get_size(p, &size));
        if (atomic_load(&ran) != 2 || size != 0)
            fprintf(stderr, "round %d: joined with %d of 2 units run, %zu left in the pool\n",
                    round, atomic_load(&ran), size);
        CHECK_EQ(atomic_load(&ran), 2);
        CHECK_EQ(size, 0);
        if (size != 0)
            CHECK_OK(ABT_xstream_revive(es));
        CHECK_OK(ABT_task_free(&t));
        CHECK_OK(ABT_thread_free(&u));
        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_pool_free(&p));
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
