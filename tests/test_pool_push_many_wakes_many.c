/* A push of n units at once into a shared pool wakes up to n sleeping
 * schedulers, not one: the units may need to run at the same time.
 *
 * Two ESs run ABT_SCHED_BASIC_WAIT over one new-style user pool (MPMC, with
 * push_many); both are left idle until they sleep. The primary ULT pushes
 * two ULTs with one ABT_pool_push_threads call. Each ULT spins, without
 * yielding, until both have started: both ESs must be awake to run them.
 * (With the built-in FIFO_WAIT pool, whose push_threads pushes one by one,
 * too.) The watchdog catches a wait for ever. */
#include "pool_user_util.h"

static atomic_int started;

static void pair_fn(void *arg)
{
    (void)arg;
    atomic_fetch_add(&started, 1);
    while (atomic_load(&started) < 2)
        ; /* no yield: the other one must run on the other ES */
}

static void one_case(ABT_pool pool)
{
    ABT_xstream es[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &pool, ABT_SCHED_CONFIG_NULL,
                                          &es[i]));
    ABT_pool parking;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &parking));
    for (int round = 0; round < 3; round++) {
        atomic_store(&started, 0);
        ABT_thread t[2];
        for (int i = 0; i < 2; i++) {
            CHECK_OK(ABT_thread_create(parking, pair_fn, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
            ABT_thread got;
            CHECK_OK(ABT_pool_pop_thread(parking, &got)); /* out of any pool */
        }
        usleep(100000); /* both ESs asleep */
        CHECK_OK(ABT_pool_push_threads(pool, t, 2));
        for (int i = 0; i < 2; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
    }
    CHECK_OK(ABT_pool_free(&parking));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
}

int main(void)
{
    BB_TEST_BEGIN(40);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool_user_def def = up_new_def(1);
    up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool upool;
    CHECK_OK(ABT_pool_create(def, cfg, &upool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_user_def_free(&def));
    one_case(upool);
    CHECK(atomic_load(&st.n_push_many) > 0);
    CHECK_OK(ABT_pool_free(&upool));

    ABT_pool fifo;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &fifo));
    one_case(fifo);
    CHECK_OK(ABT_pool_free(&fifo));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
