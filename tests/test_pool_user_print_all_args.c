/* A user pool's print_all callback gets the caller's own arg and function
 * when their kind is the pool's: ABT_pool_print_all_threads on a 1.1+ user
 * pool (ABT_pool_user_print_all_fn takes ABT_thread) and ABT_pool_print_all
 * on a legacy one (p_print_all takes ABT_unit), as in Argobots. The calls
 * of the other kind still visit every unit, converted. */
#include "pool_user_util.h"

static void *seen_arg;
static void *seen_fn;

static void modern_print_all(ABT_pool pool, void *arg, void (*fn)(void *, ABT_thread))
{
    seen_arg = arg;
    seen_fn = (void *)fn;
    up_print_all(pool, arg, fn);
}

static int legacy_print_all(ABT_pool pool, void *arg, void (*fn)(void *, ABT_unit))
{
    seen_arg = arg;
    seen_fn = (void *)fn;
    return up_l_print_all(pool, arg, fn);
}

static int threads_seen, units_seen;

static void count_thread(void *arg, ABT_thread t)
{
    CHECK(arg == &threads_seen);
    CHECK(t != ABT_THREAD_NULL);
    threads_seen++;
}

static void count_unit(void *arg, ABT_unit u)
{
    CHECK(arg == &units_seen);
    ABT_thread t = ABT_THREAD_NULL;
    CHECK_OK(ABT_unit_get_thread(u, &t));
    CHECK(t != ABT_THREAD_NULL);
    units_seen++;
}

static void nothing(void *arg)
{
    (void)arg;
}

/* Two ULTs wait in `pool`; both calls visit them. `threads_direct`: the
 * thread-based call, else the unit-based one, reaches the pool's callback
 * with its arguments unchanged. */
static void check_pool(ABT_pool pool, int threads_direct)
{
    ABT_thread t[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_create(pool, nothing, NULL, ABT_THREAD_ATTR_NULL, &t[i]));

    seen_arg = seen_fn = NULL;
    threads_seen = 0;
    CHECK_OK(ABT_pool_print_all_threads(pool, &threads_seen, count_thread));
    CHECK_EQ(threads_seen, 2);
    CHECK_EQ(seen_arg == (void *)&threads_seen, threads_direct);
    CHECK_EQ(seen_fn == (void *)count_thread, threads_direct);

    seen_arg = seen_fn = NULL;
    units_seen = 0;
    CHECK_OK(ABT_pool_print_all(pool, &units_seen, count_unit));
    CHECK_EQ(units_seen, 2);
    CHECK_EQ(seen_arg == (void *)&units_seen, !threads_direct);
    CHECK_EQ(seen_fn == (void *)count_unit, !threads_direct);

    /* Run both on the primary ES. */
    ABT_pool main_pool = up_primary_main_pool();
    for (int i = 0; i < 2; i++) {
        ABT_thread x = ABT_THREAD_NULL;
        CHECK_OK(ABT_pool_pop_thread(pool, &x));
        CHECK_OK(ABT_pool_push_thread(main_pool, x));
    }
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    up_state modern_state;
    up_state_init(&modern_state);
    ABT_pool_user_def def = up_new_def(1);
    CHECK_OK(ABT_pool_user_def_set_print_all(def, modern_print_all));
    ABT_pool_config cfg = up_config(&modern_state, -1);
    ABT_pool modern;
    CHECK_OK(ABT_pool_create(def, cfg, &modern));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_OK(ABT_pool_config_free(&cfg));
    check_pool(modern, 1);
    CHECK_OK(ABT_pool_free(&modern));

    up_state legacy_state;
    up_state_init(&legacy_state);
    ABT_pool_def ldef = up_legacy_def(ABT_POOL_ACCESS_MPMC, 1);
    ldef.p_print_all = legacy_print_all;
    ABT_pool legacy;
    cfg = up_config(&legacy_state, -1);
    CHECK_OK(ABT_pool_create(&ldef, cfg, &legacy));
    CHECK_OK(ABT_pool_config_free(&cfg));
    check_pool(legacy, 0);
    CHECK_OK(ABT_pool_free(&legacy));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
