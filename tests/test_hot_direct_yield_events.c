/* Direct yield (src/unit/hotpath.c) still lets the scheduler's events happen
 * every event_freq rounds (ABT_sched_basic_freq), since a direct yield counts
 * as one round of the scheduler:
 *  - a stacked BASIC scheduler, in the private pool of ES 1's main
 *    scheduler, whose ULTs yield among themselves until a flag is set, yields
 *    back to its parent at its events, so the ULT that sets the flag, queued
 *    in the parent's pool, gets its turn (event_freq default and small);
 *  - ABT_info_trigger_print_all_thread_stacks completes without its timeout
 *    (forced = ABT_FALSE) while the ULTs of ES 1's private pool yield among
 *    themselves, and so it does when that pool is a user-defined one (the
 *    direct yield through a user pool counts its round too: mutation
 *    testing found that unchecked);
 *  - ABT_xstream_free of an ES whose ULTs yield among themselves for a while
 *    returns once they finish.
 * A watchdog turns a missed event (a hang) into a failure. */
#include "pool_user_util.h"

#define NYIELDERS 3

static int stop_flag;
static long yields;

static void yield_until_stop(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stop_flag, __ATOMIC_ACQUIRE)) {
        __atomic_fetch_add(&yields, 1, __ATOMIC_RELAXED);
        ABT_thread_yield();
    }
}

static void set_stop(void *arg)
{
    (void)arg;
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELEASE);
}

static ABT_pool make_priv(void)
{
    ABT_pool p;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &p));
    return p;
}

/* The stacked scheduler case, with `freq` (0: the default). */
static void stacked(int freq)
{
    ABT_pool outer = make_priv(), inner = make_priv();
    ABT_sched_config cfg = ABT_SCHED_CONFIG_NULL;
    ABT_sched sched;
    ABT_thread y[NYIELDERS], setter;
    ABT_xstream es;
    stop_flag = 0;
    yields = 0;
    if (freq > 0)
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, freq,
                                         ABT_sched_config_var_end));
    for (int i = 0; i < NYIELDERS; i++)
        CHECK_OK(ABT_thread_create(inner, yield_until_stop, NULL, ABT_THREAD_ATTR_NULL, &y[i]));
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &inner, cfg, &sched));
    CHECK_OK(ABT_pool_add_sched(outer, sched));
    CHECK_OK(ABT_thread_create(outer, set_stop, NULL, ABT_THREAD_ATTR_NULL, &setter));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &outer, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&setter));
    for (int i = 0; i < NYIELDERS; i++)
        CHECK_OK(ABT_thread_free(&y[i]));
    CHECK(__atomic_load_n(&stop_flag, __ATOMIC_ACQUIRE));
    CHECK(yields >= 1);
    CHECK_OK(ABT_xstream_free(&es)); /* the automatic stacked scheduler goes too */
    if (cfg != ABT_SCHED_CONFIG_NULL)
        CHECK_OK(ABT_sched_config_free(&cfg));
}

static int dumped;
static ABT_bool dump_forced = ABT_TRUE;

static void on_dumped(ABT_bool forced, void *arg)
{
    (void)arg;
    dump_forced = forced;
    __atomic_store_n(&dumped, 1, __ATOMIC_RELEASE);
}

/* In `p`, a pool that ES 1 alone serves. */
static void dump_while_yielding(ABT_pool p, int freq)
{
    ABT_sched_config cfg = ABT_SCHED_CONFIG_NULL;
    ABT_thread y[NYIELDERS];
    ABT_xstream es;
    stop_flag = 0;
    yields = 0;
    dumped = 0;
    dump_forced = ABT_TRUE;
    if (freq > 0)
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, freq,
                                         ABT_sched_config_var_end));
    for (int i = 0; i < NYIELDERS; i++)
        CHECK_OK(ABT_thread_create(p, yield_until_stop, NULL, ABT_THREAD_ATTR_NULL, &y[i]));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &p, cfg, &es));
    while (__atomic_load_n(&yields, __ATOMIC_RELAXED) < 10)
        CHECK_OK(ABT_thread_yield());
    FILE *devnull = fopen("/dev/null", "w");
    CHECK(devnull != NULL);
    if (devnull) {
        /* 60 s: far beyond the watchdog, so only the rendezvous ends it. */
        CHECK_OK(ABT_info_trigger_print_all_thread_stacks(devnull, 60.0, on_dumped, NULL));
        while (!__atomic_load_n(&dumped, __ATOMIC_ACQUIRE))
            CHECK_OK(ABT_thread_yield());
        CHECK_EQ(dump_forced, ABT_FALSE);
    }
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < NYIELDERS; i++)
        CHECK_OK(ABT_thread_free(&y[i]));
    CHECK_OK(ABT_xstream_free(&es));
    if (devnull)
        fclose(devnull);
    if (cfg != ABT_SCHED_CONFIG_NULL)
        CHECK_OK(ABT_sched_config_free(&cfg));
}

static long countdown;

static void yield_for_a_while(void *arg)
{
    (void)arg;
    while (__atomic_sub_fetch(&countdown, 1, __ATOMIC_RELAXED) > 0)
        ABT_thread_yield();
}

static void free_while_yielding(int freq)
{
    ABT_pool p = make_priv();
    ABT_sched_config cfg = ABT_SCHED_CONFIG_NULL;
    ABT_xstream es;
    countdown = BB_TEST_SIZE(30000, 3000);
    if (freq > 0)
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, freq,
                                         ABT_sched_config_var_end));
    for (int i = 0; i < NYIELDERS; i++) /* unnamed: nobody joins them */
        CHECK_OK(ABT_thread_create(p, yield_for_a_while, NULL, ABT_THREAD_ATTR_NULL, NULL));
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &p, cfg, &es));
    CHECK_OK(ABT_xstream_free(&es)); /* returns once the pool is drained */
    CHECK(countdown <= 0);
    if (cfg != ABT_SCHED_CONFIG_NULL)
        CHECK_OK(ABT_sched_config_free(&cfg));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    stacked(0);
    stacked(4);
    stacked(1);
    dump_while_yielding(make_priv(), 0);
    dump_while_yielding(make_priv(), 3);
    up_state st;
    up_state_init(&st);
    for (int freq = 0; freq <= 3; freq += 3) {
        ABT_pool_config pcfg = up_config(&st, 1);
        dump_while_yielding(up_new_pool_with(NULL, NULL, pcfg), freq);
        CHECK_OK(ABT_pool_config_free(&pcfg));
    }
    free_while_yielding(0);
    free_while_yielding(2);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
