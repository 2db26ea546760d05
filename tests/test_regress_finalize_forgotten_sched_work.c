/* ABT_finalize frees a forgotten secondary ES with its automatic main
 * scheduler even when units are left in that scheduler's automatic pool
 * (the ES was cancelled, or work was pushed after it terminated): the
 * scheduler's free callback runs. Before, the scheduler went "back to the
 * user", who may not even hold its handle and can do nothing with it once
 * the runtime is gone: it leaked, with its pools, every cycle. */
#include "bb_test.h"
#include "sched_user_util.h"
#include <stdatomic.h>

static atomic_int num_freed;

static int sched_free(ABT_sched sched)
{
    (void)sched;
    atomic_fetch_add(&num_freed, 1);
    return ABT_SUCCESS;
}

static void noop(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    for (int round = 0; round < 20; round++) {
        CHECK_OK(ABT_init(0, NULL));
        ABT_sched_config config;
        CHECK_OK(ABT_sched_config_create(&config, ABT_sched_config_automatic, 1,
                                         ABT_sched_config_var_end));
        ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = one_pool_sched_run,
                             .free = sched_free};
        ABT_sched sched;
        CHECK_OK(ABT_sched_create(&def, 1, NULL, config, &sched)); /* a new automatic pool */
        CHECK_OK(ABT_sched_config_free(&config));
        ABT_pool pool;
        CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &pool));
        ABT_xstream es;
        CHECK_OK(ABT_xstream_create(sched, &es));
        CHECK_OK(ABT_xstream_cancel(es));
        CHECK_OK(ABT_xstream_join(es));
        for (int i = 0; i < 3; i++)
            CHECK_OK(ABT_thread_create(pool, noop, NULL, ABT_THREAD_ATTR_NULL, NULL));
        CHECK_OK(ABT_finalize()); /* the ES is not freed: finalize does it */
        CHECK_EQ(atomic_load(&num_freed), round + 1);
    }
    BB_TEST_END();
}
