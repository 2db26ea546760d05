/* A resume that comes as soon as ABT_thread_get_state shows BLOCKED must
 * succeed: a ULT on another ES suspends itself over and over, and an
 * external thread resumes it each time the moment it sees it BLOCKED. The
 * ULT used to show BLOCKED a moment before a resume could take it, and such
 * a resume failed with ABT_ERR_THREAD, once in some 100,000 rounds or
 * more. The test stops after `rounds` (well under a second on an idle
 * machine) or TIME_BUDGET_S seconds, whichever comes first: on a loaded
 * machine, where each round waits for both threads to get a CPU, it then
 * ends before its watchdog, having run fewer rounds. */
#include "bb_test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define TIME_BUDGET_S 40

static int rounds;
static atomic_int suspensions, failures, last_round;
static ABT_thread sleeper;

static void suspend_repeatedly(void *arg)
{
    (void)arg;
    do {
        CHECK_OK(ABT_self_suspend());
        atomic_fetch_add(&suspensions, 1);
    } while (!atomic_load(&last_round));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Counts its resumes in *arg. */
static void *resume_at_once(void *arg)
{
    int *resumed = arg;
    double deadline = now_s() + TIME_BUDGET_S;
    for (int i = 0; !atomic_load(&last_round); i++) {
        ABT_thread_state state;
        for (int polls = 0;; polls++) { /* as fast as possible, then politely */
            if (ABT_thread_get_state(sleeper, &state) != ABT_SUCCESS)
                return NULL;
            if (state == ABT_THREAD_STATE_BLOCKED)
                break;
            if (polls >= 1000)
                sched_yield();
        }
        if (i == rounds - 1 || ((i & 1023) == 0 && now_s() > deadline))
            atomic_store(&last_round, 1); /* seen by the ULT once resumed */
        int ret = ABT_thread_resume(sleeper);
        if (ret != ABT_SUCCESS) {
            if (atomic_fetch_add(&failures, 1) < 5)
                fprintf(stderr, "round %d: ABT_thread_resume returned %d\n", i, ret);
            while (ABT_thread_resume(sleeper) != ABT_SUCCESS) /* so that the test ends */
                ;
        }
        *resumed = i + 1;
    }
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(60);
    rounds = BB_TEST_SIZE(2000000, 20000);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_thread_create(pool, suspend_repeatedly, NULL, ABT_THREAD_ATTR_NULL, &sleeper));

    pthread_t resumer;
    int resumed = 0;
    CHECK_EQ(pthread_create(&resumer, NULL, resume_at_once, &resumed), 0);
    pthread_join(resumer, NULL);
    CHECK_EQ(atomic_load(&failures), 0);
    CHECK_OK(ABT_thread_free(&sleeper));
    CHECK_EQ(atomic_load(&suspensions), resumed);
    CHECK(resumed >= 1000);
    printf("%d rounds\n", resumed);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
