/* A revive that comes as soon as ABT_thread_get_state shows TERMINATED must
 * succeed: a ULT, then a tasklet, runs on another ES over and over, and an
 * external thread revives it each time the moment it sees it TERMINATED.
 * A unit used to show TERMINATED a moment before it had ended for good, and
 * such a revive failed with ABT_ERR_INV_THREAD. Each of the two runs stops
 * after `rounds` or TIME_BUDGET_S seconds, whichever comes first: on a
 * loaded machine, where each round waits for both threads to get a CPU (one
 * CPU for both: over 60 s for the two runs), it then ends before its
 * watchdog, having run fewer rounds. */
#include "bb_test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define TIME_BUDGET_S 15

static int rounds, done;
static atomic_int runs, failures;
static ABT_pool pool;
static ABT_thread unit;

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&runs, 1);
}

/* Polls without pause at first, to come right after the change; then gives
 * the CPU away, in case the ES runs on this CPU (a loaded machine). */
static void wait_terminated(void)
{
    ABT_thread_state state;
    for (int polls = 0;; polls++) {
        if (ABT_thread_get_state(unit, &state) != ABT_SUCCESS ||
            state == ABT_THREAD_STATE_TERMINATED)
            return;
        if (polls >= 1000)
            sched_yield();
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Leaves in `done` how many times the unit has run (or is to run). */
static void *revive_at_once(void *arg)
{
    (void)arg;
    double deadline = now_s() + TIME_BUDGET_S;
    done = rounds;
    for (int i = 1; i < rounds; i++) {
        if ((i & 1023) == 0 && now_s() > deadline) {
            done = i;
            break;
        }
        wait_terminated();
        int ret = ABT_thread_revive(pool, body, NULL, &unit);
        if (ret != ABT_SUCCESS) {
            if (atomic_fetch_add(&failures, 1) < 5)
                fprintf(stderr, "round %d: ABT_thread_revive returned %d\n", i, ret);
            while (ABT_thread_revive(pool, body, NULL, &unit) != ABT_SUCCESS) /* so that the test ends */
                ;
        }
    }
    wait_terminated();
    return NULL;
}

static void run_rounds(int is_ult)
{
    atomic_store(&runs, 0);
    if (is_ult)
        CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &unit));
    else
        CHECK_OK(ABT_task_create(pool, body, NULL, &unit));
    pthread_t reviver;
    CHECK_EQ(pthread_create(&reviver, NULL, revive_at_once, NULL), 0);
    pthread_join(reviver, NULL);
    CHECK_OK(ABT_thread_free(&unit));
    CHECK_EQ(atomic_load(&runs), done);
    CHECK(done >= 1000);
    printf("%s: %d rounds\n", is_ult ? "ULT" : "tasklet", done);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    rounds = BB_TEST_SIZE(200000, 5000);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    run_rounds(1);
    run_rounds(0);
    CHECK_EQ(atomic_load(&failures), 0);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
