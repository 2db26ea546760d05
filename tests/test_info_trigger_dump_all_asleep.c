/* ABT_info_trigger_print_all_thread_stacks, raised from a signal handler
 * while every ES that could lead the dump sleeps (two idle BASIC_WAIT ESs)
 * and the main ULT never yields (as in a program that is stuck): the
 * trigger wakes the sleepers, one leads, and after the timeout (the primary
 * ES never stops) prints and calls the callback with forced = ABT_TRUE.
 * Before, nobody woke up, and the dump waited for the main ULT to yield. */
#include "bb_test.h"
#include <signal.h>
#include <string.h>
#include <time.h>

#define NUM_ES 2

static FILE *out;
static int dumps; /* atomic */
static ABT_bool last_forced;

static void dumped(ABT_bool forced, void *arg)
{
    (void)arg;
    __atomic_store_n(&last_forced, forced, __ATOMIC_RELAXED);
    __atomic_fetch_add(&dumps, 1, __ATOMIC_RELEASE);
}

static void on_signal(int sig)
{
    (void)sig;
    ABT_info_trigger_print_all_thread_stacks(out, 0.2, dumped, NULL);
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
    nanosleep(&ts, NULL);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    out = tmpfile();
    CHECK(out != NULL);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[NUM_ES];
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 0, NULL, ABT_SCHED_CONFIG_NULL,
                                          &es[i]));
    nap_ms(100); /* they fall asleep */
    signal(SIGUSR1, on_signal);
    raise(SIGUSR1);
    /* No yield: the primary ES never reaches its scheduler meanwhile. */
    for (int i = 0; i < 1000 && __atomic_load_n(&dumps, __ATOMIC_ACQUIRE) == 0; i++)
        nap_ms(10);
    CHECK_EQ(__atomic_load_n(&dumps, __ATOMIC_ACQUIRE), 1);
    CHECK_EQ(__atomic_load_n(&last_forced, __ATOMIC_RELAXED), ABT_TRUE);

    char text[4096] = {0};
    rewind(out);
    size_t len = fread(text, 1, sizeof(text) - 1, out);
    text[len] = '\0';
    CHECK(strstr(text, "start of the stack dump") != NULL);
    CHECK(strstr(text, "end of the stack dump") != NULL);

    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    fclose(out);
    BB_TEST_END();
}
