/*
 * ABT_finalize frees the secondary ESs the user did not free, joining them
 * first so that their pools drain. That holds for an ES that had already
 * stopped with work left in its pools, too: one cancelled, whose pool then
 * got a ULT and a tasklet. Both run before ABT_finalize returns, and
 * nothing leaks (the test is run under LeakSanitizer).
 *
 * Regression: the stopped ES was freed as it was; its units never ran, and
 * its automatic scheduler, kept with its pool for the user (who could no
 * longer free it), leaked.
 */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int ran;

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_task_create(pool, body, NULL, NULL));

    /* And one the user did stop and leave alone, with nothing in it. */
    ABT_xstream idle;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &idle));
    CHECK_OK(ABT_xstream_join(idle));

    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&ran), 2);
    BB_TEST_END();
}
