/* A move into a user pool whose create-unit callback fails does not happen
 * (ABT_ERR_OTHER, REFERENCE section 9), and leaves no count behind in that
 * pool: the target counts the unit as to come from before the callback
 * until the unit is in (migrate.c, move_taken_out), and drops the count when
 * the unit goes back to its own pool instead (switch.c, push_and_uncount).
 * Afterwards the user pool's total size is 0 and it can be freed. Both the
 * move made at once (a READY unit) and the one served at a yield (a request
 * posted while the ULT runs) are checked. Mutation testing found nothing
 * checking that the count drops when the unit goes elsewhere. */
#include "pool_user_util.h"

static atomic_int fail_create;
static ABT_pool UP;
static int request_err = -1;
static ABT_pool after_yield;

static ABT_unit failing_create_unit(ABT_pool pool, ABT_thread thread)
{
    if (atomic_load(&fail_create))
        return ABT_UNIT_NULL;
    return up_create_unit(pool, thread);
}

static void noop(void *arg)
{
    (void)arg;
}

static void runs_then_yields(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    request_err = ABT_thread_migrate_to_pool(self, UP); /* a request: served at the yield */
    ABT_thread_yield(); /* the move fails there: it stays */
    CHECK_OK(ABT_self_get_last_pool(&after_yield));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    static up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    UP = up_new_pool_with(failing_create_unit, NULL, cfg);
    CHECK_OK(ABT_pool_config_free(&cfg));
    atomic_store(&fail_create, 1);
    ABT_pool main_pool = bb_test_main_pool();

    /* At once: a READY unit in a pool nobody serves. */
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(idle, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_ERR(ABT_thread_migrate_to_pool(t, UP), ABT_ERR_OTHER);
    ABT_pool p = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(t, &p));
    CHECK(p == idle);
    size_t n = 99;
    CHECK_OK(ABT_pool_get_total_size(UP, &n));
    CHECK_EQ(n, 0);
    bb_test_run_from(idle, &t);

    /* At the yield: the ULT asks for the move itself. */
    CHECK_OK(ABT_thread_create(main_pool, runs_then_yields, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(request_err);
    CHECK(after_yield == main_pool);
    n = 99;
    CHECK_OK(ABT_pool_get_total_size(UP, &n));
    CHECK_EQ(n, 0);

    CHECK_OK(ABT_pool_free(&UP));
    CHECK_OK(ABT_pool_free(&idle));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
