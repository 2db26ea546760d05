/* An idle ABT_SCHED_BASIC_WAIT scheduler polls before it sleeps only while
 * polling pays, and ABT_info_print_sched says which it does:
 *  - a new one polls ("idle polling: up to 50 us");
 *  - after work has come 2 ms after it went idle (its polls ran out) twice
 *    in a row, it sleeps at once ("idle polling: none"), and a third time
 *    changes nothing;
 *  - once work comes again right after it went idle (the main ULT creates
 *    the next ULT as soon as it sees the last one run), it polls again;
 *    then one slow round is not enough to stop it, and a second is (not
 *    under valgrind, where work never comes that soon);
 *  - each ULT runs on that ES, whichever it does.
 * The other schedulers never show the line. */
#include "bb_test.h"
#include "capture_util.h"
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

static atomic_int runs, runs_elsewhere;
static int es_rank;

static void count_run(void *arg)
{
    (void)arg;
    int rank = -1;
    ABT_self_get_xstream_rank(&rank);
    if (rank != es_rank)
        atomic_fetch_add(&runs_elsewhere, 1);
    atomic_fetch_add(&runs, 1);
}

/* Creates one ULT into `pool` and waits (yielding the CPU) until it ran. */
static void run_one(ABT_pool pool)
{
    int before = atomic_load(&runs);
    CHECK_OK(ABT_thread_create(pool, count_run, NULL, ABT_THREAD_ATTR_NULL, NULL));
    while (atomic_load(&runs) == before)
        sched_yield();
}

/* The "idle polling" line of ABT_info_print_sched, or "" if it has none. */
static void polling_line(ABT_sched sched, char *out, size_t size)
{
    char *text;
    CAPTURE(text, ABT_info_print_sched(fp, sched));
    const char *line = strstr(text, "idle polling:");
    size_t len = line ? strcspn(line, "\n") : 0;
    if (len >= size)
        len = size - 1;
    memcpy(out, line ? line : "", len);
    out[len] = '\0';
    free(text);
}

static int polls(ABT_sched sched)
{
    char line[160];
    polling_line(sched, line, sizeof(line));
    CHECK(line[0] != '\0');
    return strstr(line, "up to 50 us") != NULL;
}

static int rounds_done;

/* Work that comes long after the ES went idle: its polls ran out. */
static void slow_round(ABT_pool pool)
{
    usleep(2000);
    run_one(pool);
    rounds_done++;
}

/* Slow rounds until it stops polling: normally 2 (the second one in a row),
 * but an ES thread that the OS kept off the CPU until the work came never
 * went idle, so up to 50. Returns whether it stopped. */
static int stop_polling(ABT_pool pool, ABT_sched sched)
{
    int n = 0;
    while (polls(sched) && n < 50) {
        slow_round(pool);
        n++;
    }
    printf("no polling after %d slow rounds\n", n);
    return !polls(sched);
}

/* Work that comes right after it went idle: polling pays again. Most
 * rounds find it within microseconds; give a slow run (TSan) many.
 * Returns how many rounds it took, 0 if it still does not poll. */
static int start_polling(ABT_pool pool, ABT_sched sched)
{
    int n = 0;
    while (!polls(sched) && n < 20000) {
        run_one(pool);
        rounds_done++;
        n++;
    }
    printf("polling again after %d quick rounds\n", n);
    return polls(sched) ? n : 0;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 0, NULL, ABT_SCHED_CONFIG_NULL, &es));
    ABT_sched sched;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_sched(es, &sched));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_xstream_get_rank(es, &es_rank));
    CHECK(polls(sched));

    CHECK_EQ(stop_polling(pool, sched), 1);
    slow_round(pool);
    CHECK(!polls(sched)); /* stays so */
    if (RUNNING_ON_VALGRIND) {
        /* Its threads take turns: no work comes within 50 us of idling. */
        printf("valgrind: no quick rounds\n");
    } else {
        CHECK(start_polling(pool, sched) > 0);
        slow_round(pool);
        CHECK(polls(sched)); /* one vain poll is not enough */
        CHECK_EQ(stop_polling(pool, sched), 1);
    }
    CHECK_EQ(atomic_load(&runs), rounds_done);
    CHECK_EQ(atomic_load(&runs_elsewhere), 0);

    /* Only BASIC_WAIT has the line. */
    ABT_sched basic;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &basic));
    char line[160];
    polling_line(basic, line, sizeof(line));
    CHECK_EQ(line[0], '\0');
    CHECK_OK(ABT_sched_free(&basic));

    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
