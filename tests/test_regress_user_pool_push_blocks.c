/* A user pool's push callback that calls into the runtime during a yield
 * (src/unit/hotpath.c, the direct yield through a user pool).
 *
 * Without the shortcut, a yielding ULT is pushed back by its scheduler:
 * the pool's callbacks run as the ES's main scheduler, so a contended
 * ABT_mutex_lock in them sleeps in the kernel and ABT_thread_yield does
 * nothing. The direct yield used to run them as the yielding ULT itself,
 * half-way out (marked READY and `switching`): the mutex blocked that ULT,
 * whose wake-up pushed it while the interrupted push later pushed it again
 * and let another ES run it with the first ES's bookkeeping; a yield in
 * the callback pushed it twice. Both hung. Each case, with the default
 * settings and with ABT_OPT_DIRECT_YIELD=0:
 *  1. the push takes a mutex that the primary ULT holds for 50 ms;
 *  2. the push yields;
 * three ULTs that yield five times each all finish, nothing is pushed
 * twice, and the callbacks never see the yielding ULT as their caller
 * (ABT_self_get_thread): they run as the scheduler, whichever the path. */
#include "pool_user_util.h"

static ABT_mutex m;
static atomic_int lock_in_push, yield_in_push, n_locked, n_ran, n_not_sched;
static ABT_thread yielders[3]; /* never the caller of their own push */

static void cb_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    if (ctx & ABT_POOL_CONTEXT_OP_THREAD_YIELD) {
        ABT_thread self = ABT_THREAD_NULL;
        CHECK_OK(ABT_self_get_thread(&self));
        for (int i = 0; i < 3; i++)
            if (self == __atomic_load_n(&yielders[i], __ATOMIC_ACQUIRE))
                atomic_fetch_add(&n_not_sched, 1);
        if (atomic_load(&lock_in_push)) {
            CHECK_OK(ABT_mutex_lock(m));
            atomic_fetch_add(&n_locked, 1);
            CHECK_OK(ABT_mutex_unlock(m));
        }
        if (atomic_load(&yield_in_push))
            CHECK_OK(ABT_thread_yield());
    }
    up_push(pool, unit, ctx);
}

static void yielder(void *arg)
{
    (void)arg;
    for (int i = 0; i < 5; i++)
        CHECK_OK(ABT_thread_yield());
    atomic_fetch_add(&n_ran, 1);
}

static void run_case(const char *setting, int lock, int yield)
{
    atomic_store(&n_locked, 0);
    atomic_store(&n_ran, 0);
    atomic_store(&n_not_sched, 0);
    memset(&up_g, 0, sizeof(up_g));
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_create(&m));
    up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool_user_def d;
    CHECK_OK(ABT_pool_user_def_create(up_create_unit, up_free_unit, up_is_empty, up_pop, cb_push,
                                      &d));
    CHECK_OK(ABT_pool_user_def_set_init(d, up_init));
    CHECK_OK(ABT_pool_user_def_set_get_size(d, up_get_size));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create(d, cfg, &pool));
    CHECK_OK(ABT_pool_user_def_free(&d));
    CHECK_OK(ABT_pool_config_free(&cfg));

    atomic_store(&lock_in_push, lock);
    atomic_store(&yield_in_push, yield);
    CHECK_OK(ABT_mutex_lock(m));
    ABT_thread t[3];
    for (int i = 0; i < 3; i++) {
        CHECK_OK(ABT_thread_create(pool, yielder, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        __atomic_store_n(&yielders[i], t[i], __ATOMIC_RELEASE);
    }
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    usleep(50000); /* meanwhile the first yield's push waits for m */
    CHECK_OK(ABT_mutex_unlock(m));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    for (int i = 0; i < 3; i++)
        __atomic_store_n(&yielders[i], ABT_THREAD_NULL, __ATOMIC_RELEASE);

    if (atomic_load(&n_ran) != 3 || atomic_load(&up_g.n_misuse) != 0)
        BB_FAIL_AT("%s, lock %d, yield %d: %d ULTs finished, %d misuses", setting, lock, yield,
                   atomic_load(&n_ran), atomic_load(&up_g.n_misuse));
    if (lock)
        CHECK_EQ(atomic_load(&n_locked), 15);
    CHECK_EQ(atomic_load(&n_not_sched), 0); /* the callbacks ran as the scheduler */
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_mutex_free(&m));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(30);
    const char *settings[2] = {"default", "ABT_OPT_DIRECT_YIELD=0"};
    for (int s = 0; s < 2; s++) {
        if (s)
            setenv("ABT_OPT_DIRECT_YIELD", "0", 1);
        run_case(settings[s], 1, 0);
        run_case(settings[s], 0, 1);
    }
    BB_TEST_END();
}
