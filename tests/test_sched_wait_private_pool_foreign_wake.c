/* ABT_SCHED_BASIC_WAIT over a private pool must not sleep until a push: a
 * ULT of a private pool woken by another ES (or an external thread) does not
 * go into the pool's list (only the pool's ES may change it) but onto its
 * incoming stack, which the ES takes in at its next event check, without a
 * ring. So the scheduler polls (as with any pool that does not wake
 * sleepers), and the woken ULT runs.
 *
 * For a built-in private FIFO pool and for a legacy user-defined pool of
 * access ABT_POOL_ACCESS_PRIV: ES 1 runs BASIC_WAIT over the pool; a ULT
 * there blocks on an eventual; the primary ULT waits until it is blocked,
 * lets ES 1 go idle (long enough to fall asleep, were it allowed to), sets
 * the eventual and joins the ULT (the watchdog catches a wait for ever). */
#include "pool_user_util.h"

static ABT_eventual ev;
static ABT_pool the_pool;
static _Atomic(ABT_thread) published;
static atomic_int done, go, finished_round;
enum { ROUNDS = 3 };

static void waiter(void *arg)
{
    (void)arg;
    ABT_eventual_wait(ev, NULL);
    atomic_fetch_add(&done, 1);
}

/* On ES 1 (the only one that may create in its private pool): each round,
 * a waiter, joined. */
static void driver(void *arg)
{
    (void)arg;
    for (int round = 0; round < ROUNDS; round++) {
        while (atomic_load(&go) <= round)
            ABT_thread_yield();
        ABT_thread w;
        CHECK_OK(ABT_thread_create(the_pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
        atomic_store(&published, w);
        CHECK_OK(ABT_thread_free(&w));
        atomic_store(&finished_round, round + 1);
    }
}

static void one_case(ABT_pool pool, const char *what)
{
    ABT_xstream es;
    the_pool = pool;
    atomic_store(&done, 0);
    atomic_store(&go, 0);
    atomic_store(&finished_round, 0);
    CHECK_OK(ABT_eventual_create(0, &ev));
    ABT_thread d;
    CHECK_OK(ABT_thread_create(pool, driver, NULL, ABT_THREAD_ATTR_NULL, &d)); /* no home yet */
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    for (int round = 0; round < ROUNDS; round++) {
        atomic_store(&published, ABT_THREAD_NULL);
        atomic_store(&go, round + 1);
        ABT_thread w;
        while ((w = atomic_load(&published)) == ABT_THREAD_NULL)
            usleep(100);
        ABT_thread_state s = ABT_THREAD_STATE_READY;
        while (s != ABT_THREAD_STATE_BLOCKED && s != ABT_THREAD_STATE_TERMINATED)
            CHECK_OK(ABT_thread_get_state(w, &s));
        usleep(50000); /* ES 1 idle: the driver waits for the waiter */
        CHECK_OK(ABT_eventual_set(ev, NULL, 0));
        while (atomic_load(&finished_round) <= round)
            usleep(100);
        if (atomic_load(&done) != round + 1)
            fprintf(stderr, "%s, round %d: the woken ULT did not run\n", what, round);
        CHECK_EQ(atomic_load(&done), round + 1);
        CHECK_OK(ABT_eventual_reset(ev));
    }
    CHECK_OK(ABT_thread_free(&d));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_eventual_free(&ev));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool priv;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    one_case(priv, "built-in private pool");

    up_state st;
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, 0);
    ABT_pool_def def = up_legacy_def(ABT_POOL_ACCESS_PRIV, 0);
    ABT_pool lpool;
    CHECK_OK(ABT_pool_create((ABT_pool_user_def)&def, cfg, &lpool));
    CHECK_OK(ABT_pool_config_free(&cfg));
    one_case(lpool, "legacy user pool, ABT_POOL_ACCESS_PRIV");
    CHECK_OK(ABT_pool_free(&lpool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
