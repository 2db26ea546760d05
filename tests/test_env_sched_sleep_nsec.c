/* ABT_SCHED_SLEEP_NSEC (and ABT_ENV_SCHED_SLEEP_NSEC), read at each ABT_init.
 *
 * Unset, the query answers Argobots' default (100) and ENABLED_SCHED_SLEEP
 * false: an idle BASIC scheduler polls, then yields the CPU. Set to a
 * positive number, an idle BASIC scheduler sleeps that long at each empty
 * round once it has polled: the OS thread of a secondary ES left idle is
 * found asleep at most looks (a polling one is always runnable; here at
 * least half, generous against a loaded machine). Its units still run, and
 * ABT_xstream_free of the sleeping ES returns at once, not at the end of
 * its sleep (the stop rings it). The value is
 * in the query and in ABT_PRINT_CONFIG's output. "0" leaves the sleep off;
 * a value that is no number is refused with a warning: no sleep, the query
 * answering 100, as when unset. */
#include <sys/syscall.h>
#include <time.h>
#include "bb_test.h"

static char out[65536];

static void expect_query(uint64_t nsec, ABT_bool sleeps)
{
    uint64_t v = 0;
    ABT_bool b = !sleeps;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC, &v));
    CHECK_EQ(v, nsec);
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_SCHED_SLEEP, &b));
    CHECK_EQ(b, sleeps);
}

static int ran;
static pid_t es_tid;
static void note_tid(void *arg)
{
    (void)arg;
    es_tid = (pid_t)syscall(SYS_gettid);
    ran++;
}

/* The state letter of thread `tid` (R running or runnable, S sleeping ...). */
static char thread_state(pid_t tid)
{
    char path[64], text[512];
    snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return '?';
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *after_name = strrchr(text, ')'); /* "tid (comm) S ..." */
    return after_name && after_name[1] == ' ' ? after_name[2] : '?';
}

/* A secondary ES with the default (BASIC) scheduler, idle for 400 ms: the
 * share of 200 looks at its OS thread that found it asleep. A thread that
 * polls with sched_yield is runnable throughout, however loaded the
 * machine. Then a unit runs there, and the ES is freed. */
static double idle_es_asleep_share(void)
{
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread t;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ran = 0;
    CHECK_OK(ABT_thread_create(pool, note_tid, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 1);
    usleep(20000); /* past its polling */
    int asleep = 0;
    for (int i = 0; i < 200; i++) {
        asleep += thread_state(es_tid) == 'S';
        usleep(2000);
    }
    CHECK_OK(ABT_thread_create(pool, note_tid, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 2);
    CHECK_OK(ABT_xstream_free(&es));
    return asleep / 200.0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* An ES that has just gone into a sleep of almost a second is freed: the
 * request to stop rings its bell, so the free does not wait for the sleep
 * to end (it took up to a second with a plain nanosleep). */
static double free_of_sleeping_es_s(void)
{
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    usleep(50000); /* past its polling, into its first sleep */
    double start = now_s();
    CHECK_OK(ABT_xstream_free(&es));
    return now_s() - start;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    unsetenv("ABT_SCHED_SLEEP_NSEC");
    unsetenv("ABT_ENV_SCHED_SLEEP_NSEC");
    CHECK_OK(ABT_init(0, NULL));
    expect_query(100, ABT_FALSE);
    CHECK_OK(ABT_finalize());

    setenv("ABT_PRINT_CONFIG", "1", 1);
    setenv("ABT_SCHED_SLEEP_NSEC", "2000000", 1); /* 2 ms */
    CHECK(bb_test_init_captured(out, sizeof(out)) > 0);
    CHECK(strstr(out, "ABT_SCHED_SLEEP_NSEC    : 2000000") != NULL);
    expect_query(2000000, ABT_TRUE);
    double asleep = idle_es_asleep_share();
    /* A polling ES is never found asleep. One that sleeps 2 ms at a time is,
     * most of the time, but on a loaded machine it may wait runnable after
     * each wake-up: the bound is low, so that only polling fails it. */
    if (!bb_test_is_slow_run() && asleep < 0.2)
        BB_FAIL_AT("an ES idle with 2 ms sleeps was asleep at %.0f%% of the looks",
                   asleep * 100);
    CHECK_OK(ABT_finalize());

    setenv("ABT_SCHED_SLEEP_NSEC", "0", 1);
    CHECK(bb_test_init_captured(out, sizeof(out)) > 0);
    CHECK(strstr(out, "ABT_SCHED_SLEEP_NSEC    : off") != NULL);
    expect_query(0, ABT_FALSE);
    CHECK_OK(ABT_finalize());

    setenv("ABT_SCHED_SLEEP_NSEC", "999999999", 1);
    CHECK(bb_test_init_captured(out, sizeof(out)) > 0);
    double took = free_of_sleeping_es_s();
    /* Ignoring the stop would take the rest of the sleep, about 0.95 s. */
    if (!bb_test_is_slow_run() && took >= 0.8)
        BB_FAIL_AT("freeing an ES asleep for up to 1 s took %.3f s: its sleep ignored the stop",
                   took);
    CHECK_OK(ABT_finalize());

    unsetenv("ABT_SCHED_SLEEP_NSEC");
    setenv("ABT_ENV_SCHED_SLEEP_NSEC", "5000", 1);
    CHECK(bb_test_init_captured(out, sizeof(out)) > 0);
    expect_query(5000, ABT_TRUE);
    CHECK_OK(ABT_finalize());

    unsetenv("ABT_ENV_SCHED_SLEEP_NSEC");
    setenv("ABT_SCHED_SLEEP_NSEC", "soon", 1);
    CHECK(bb_test_init_captured(out, sizeof(out)) > 0);
    expect_query(100, ABT_FALSE); /* no number: no sleep, as unset */
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
