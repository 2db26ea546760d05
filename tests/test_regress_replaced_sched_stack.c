/* A user-defined main scheduler runs on a stack of ABT_SCHED_STACKSIZE
 * (xstream.c, make_sched_unit: only a predefined loop under sc or auto gets
 * a default-size ULT stack, which it lends). But that is decided when the
 * ES is created: a user-defined scheduler that later replaces the
 * predefined one (ABT_xstream_set_main_sched) keeps running on the small
 * stack, and its run function, using 64 KiB of stack, overflowed under sc
 * and auto (an audit of stack use). It now runs on the ES's big stack
 * (xstream.c, run_sched). */
#include "sched_user_util.h"
#include "stack_use_util.h"
#include "technique_util.h"

#define DEPTH 64

static int reached;

/* Uses 64 KiB of stack, then runs its pool. */
static void user_run(ABT_sched sched)
{
    __atomic_store_n(&reached, use_stack_kib(DEPTH), __ATOMIC_RELAXED);
    one_pool_sched_run(sched);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    for (int t = 0; t < TQ_NUM; t++) {
        tq_init(t);
        reached = 0;
        ABT_xstream es;
        ABT_pool pool1, upool;
        ABT_sched usched;
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
        CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
        ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = user_run};
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &upool));
        CHECK_OK(ABT_sched_create(&def, 1, &upool, ABT_SCHED_CONFIG_NULL, &usched));
        ABT_thread replacer;
        CHECK_OK(ABT_thread_create(pool1, replace_main_sched_here, &usched, ABT_THREAD_ATTR_NULL,
                                   &replacer));
        CHECK_OK(ABT_thread_free(&replacer));
        tq_collect_ult_failures();
        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_sched_free(&usched));
        CHECK_EQ(reached, DEPTH);
        CHECK_OK(ABT_finalize());
    }
    BB_TEST_END();
}
