/* What a scheduler's own ULT gets from the calls that concern the calling
 * unit, on a secondary ES run by a user-defined main scheduler:
 *  - ABT_thread_exit and ABT_self_exit are refused with ABT_ERR_INV_THREAD
 *    (REFERENCE: "ULT, not the primary ULT, not a scheduler") and the
 *    scheduler goes on running its pool;
 *  - a main scheduler has no associated pool: ABT_self_get_last_pool gives
 *    ABT_POOL_NULL, ABT_self_get_last_pool_id and
 *    ABT_thread_get_last_pool_id on its own handle give -1.
 * Mutation testing (thread.c, self.c) found nothing checking these. */
#include "sched_user_util.h"

static int exit_err = -12345, self_exit_err = -12345;
static int self_pool_id = 12345, thread_pool_id = 12345;
static ABT_pool self_pool = (ABT_pool)(intptr_t)1;
static int ran;

static void sched_run(ABT_sched sched)
{
    static int first = 1;
    if (first) {
        first = 0;
        exit_err = ABT_thread_exit();
        self_exit_err = ABT_self_exit();
        CHECK_OK(ABT_self_get_last_pool(&self_pool));
        CHECK_OK(ABT_self_get_last_pool_id(&self_pool_id));
        ABT_thread me = ABT_THREAD_NULL;
        CHECK_OK(ABT_self_get_thread(&me));
        CHECK_OK(ABT_thread_get_last_pool_id(me, &thread_pool_id));
    }
    one_pool_sched_run(sched);
}

static void body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran, 1, __ATOMIC_SEQ_CST);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    ABT_sched sched;
    ABT_xstream es = start_user_sched_es(sched_run, &sched, &pool);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_EQ(ran, 1);
    CHECK_EQ(exit_err, ABT_ERR_INV_THREAD);
    CHECK_EQ(self_exit_err, ABT_ERR_INV_THREAD);
    CHECK(self_pool == ABT_POOL_NULL);
    CHECK_EQ(self_pool_id, -1);
    CHECK_EQ(thread_pool_id, -1);
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
