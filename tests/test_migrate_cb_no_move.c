/* The migration callback runs once per completed move (REFERENCE, section
 * 9). A ULT that asked to move itself to pool B and, before its next yield,
 * made B its associated pool anyway (ABT_self_set_associated_pool) does not
 * move when the request is served: it is in B already, and the callback
 * does not run. A plain self-migration in the same setting runs it once.
 * Mutation testing (migrate.c, bb_unit_apply_migration's test of the
 * target against the current pool) found nothing checking this. */
#include "bb_test.h"

static int cb_calls;

static void cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
    cb_calls++;
}

static ABT_pool B;
static ABT_pool where;

static void body(void *arg)
{
    int also_associate = (int)(intptr_t)arg;
    ABT_thread me;
    CHECK_OK(ABT_self_get_thread(&me));
    CHECK_OK(ABT_thread_set_callback(me, cb, NULL));
    CHECK_OK(ABT_thread_migrate_to_pool(me, B)); /* served at the next yield */
    if (also_associate)
        CHECK_OK(ABT_self_set_associated_pool(B));
    ABT_thread_yield(); /* into B, which nobody serves */
    CHECK_OK(ABT_self_get_last_pool(&where));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &B));
    for (int assoc = 0; assoc < 2; assoc++) {
        cb_calls = 0;
        where = ABT_POOL_NULL;
        ABT_thread t;
        CHECK_OK(ABT_thread_create(bb_test_main_pool(), body, (void *)(intptr_t)assoc,
                                   ABT_THREAD_ATTR_NULL, &t));
        size_t n = 0;
        for (;;) {
            CHECK_OK(ABT_pool_get_size(B, &n));
            if (n > 0)
                break;
            ABT_thread_yield();
        }
        CHECK_EQ(cb_calls, assoc ? 0 : 1);
        ABT_pool last = ABT_POOL_NULL;
        CHECK_OK(ABT_thread_get_last_pool(t, &last));
        CHECK(last == B);
        ABT_thread popped = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_thread(B, &popped));
        CHECK(popped == t);
        if (popped != ABT_THREAD_NULL) /* the rest of its run, here */
            CHECK_OK(ABT_self_schedule(popped, ABT_POOL_NULL));
        CHECK_OK(ABT_thread_free(&t));
        CHECK(where == B);
        CHECK_EQ(cb_calls, assoc ? 0 : 1);
    }
    CHECK_OK(ABT_pool_free(&B));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
