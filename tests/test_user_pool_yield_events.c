/* The direct yield through a user pool (hotpath.c, yield_through_user_pool)
 * counts as one round of the scheduler, as the one through a private FIFO
 * does, so that the scheduler's events still come every event_freq rounds:
 * ABT_info_trigger_print_all_thread_stacks completes without its timeout
 * (forced = ABT_FALSE) while the ULTs of ES 1's user pool yield among
 * themselves. test_hot_direct_yield_events checks this for a private FIFO;
 * mutation testing found nothing checking it for a user pool (the mutant
 * that skips the round count there, and with it the test of the yielder's
 * parent, survived). A watchdog turns a missed event into a failure. */
#include "pool_user_util.h"

#define NYIELDERS 3

static int stop_flag;
static long yields;
static int dumped;
static ABT_bool dump_forced = ABT_TRUE;

static void yield_until_stop(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stop_flag, __ATOMIC_ACQUIRE)) {
        __atomic_fetch_add(&yields, 1, __ATOMIC_RELAXED);
        ABT_thread_yield();
    }
}

static void on_dumped(ABT_bool forced, void *arg)
{
    (void)arg;
    dump_forced = forced;
    __atomic_store_n(&dumped, 1, __ATOMIC_RELEASE);
}

static up_state st;

static void dump_while_yielding(int freq)
{
    ABT_pool_config pcfg = up_config(&st, 1);
    ABT_pool p = up_new_pool_with(NULL, NULL, pcfg);
    CHECK_OK(ABT_pool_config_free(&pcfg));
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

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&st);
    dump_while_yielding(0);
    dump_while_yielding(3);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
