/* A main scheduler that another replaces leaves its ES, but the ES's
 * scheduler unit goes on, running the new one. ABT_xstream_check_events
 * accepts a scheduler only from the ULT that runs it; a retired scheduler
 * kept that unit as its own, so the new scheduler could check the events
 * of the old one in its name and be told ABT_SUCCESS. It must get
 * ABT_ERR_INV_THREAD: nothing runs the old scheduler any more. */
#include <stdatomic.h>

#include "sched_user_util.h"

static ABT_sched first, second;
static atomic_int checked = -1; /* what checking `first` from `second` returned */

static void check_first_then_run(ABT_sched sched)
{
    if (atomic_load(&checked) == -1)
        atomic_store(&checked, ABT_xstream_check_events(first));
    one_pool_sched_run(sched);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    ABT_xstream es = start_user_sched_es(one_pool_sched_run, &first, &pool);

    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = check_first_then_run};
    CHECK_OK(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &second));
    ABT_thread replacer;
    CHECK_OK(ABT_thread_create(pool, replace_main_sched_here, &second, ABT_THREAD_ATTR_NULL,
                               &replacer));
    CHECK_OK(ABT_thread_free(&replacer));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(atomic_load(&checked), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_sched_free(&second));
    CHECK_OK(ABT_sched_free(&first));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
