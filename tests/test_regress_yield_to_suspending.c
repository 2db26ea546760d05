/* ABT_thread_yield_to a ULT that a resume has just pushed while the ULT was
 * still suspending: the target's context may not be saved yet, and until it
 * is, the target reads its own `parent` to know where to switch. yield_to
 * used to write the target's fields (its parent among them) first and wait
 * for the save after: a target still on its way out then switched into the
 * scheduler of the yielder's ES, on its own OS thread, and two threads ran
 * one ES (seen by ThreadSanitizer as a race on `parent`; with a delay in
 * the suspend, a hang or a crash).
 *
 * Three ESs share one pool. Suspenders suspend themselves over and over, a
 * resumer resumes each as soon as it has asked to be, and two yielders
 * yield_to random suspenders. Every ULT must finish, and every call succeed
 * (a resume may find its ULT not suspended yet: ABT_ERR_THREAD, retried).
 * Every ULT here spins without blocking, so each round waits for the OS to
 * hand the CPUs around: with fewer CPUs than ESs (a loaded machine) a round
 * takes milliseconds instead of microseconds. The suspenders therefore stop
 * after `rounds` or TIME_BUDGET_S seconds, whichever comes first, so that the
 * test ends before its watchdog, having run fewer rounds. */
#include "bb_test.h"
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#define NUM_ES 3
#define NUM_SUSPENDERS 8
#define NUM_YIELDERS 2
#define TIME_BUDGET_S 30

static int rounds;
static ABT_thread suspenders[NUM_SUSPENDERS];
static atomic_int asked[NUM_SUSPENDERS], finished, stop, time_up;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void suspend_repeatedly(void *arg)
{
    int i = (int)(intptr_t)arg;
    for (int r = 0; r < rounds && !atomic_load(&time_up); r++) {
        atomic_fetch_add(&asked[i], 1);
        CHECK_OK(ABT_self_suspend());
    }
    atomic_fetch_add(&finished, 1);
}

static void resume_all(void *arg)
{
    (void)arg;
    int resumed[NUM_SUSPENDERS] = {0};
    double deadline = now_s() + TIME_BUDGET_S;
    for (unsigned long n = 0; atomic_load(&finished) < NUM_SUSPENDERS; n++) {
        if ((n & 1023) == 0 && !atomic_load(&time_up) && now_s() > deadline)
            atomic_store(&time_up, 1); /* each suspender finishes once resumed */
        for (int i = 0; i < NUM_SUSPENDERS; i++) {
            if (atomic_load(&asked[i]) <= resumed[i])
                continue;
            int ret = ABT_thread_resume(suspenders[i]);
            if (ret == ABT_SUCCESS)
                resumed[i]++;
            else
                CHECK_EQ(ret, ABT_ERR_THREAD); /* not suspended yet */
        }
    }
}

static void yield_to_random(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    while (!atomic_load(&stop)) {
        seed = seed * 1103515245u + 12345u;
        CHECK_OK(ABT_thread_yield_to(suspenders[(seed >> 16) % NUM_SUSPENDERS]));
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    /* Full size under ThreadSanitizer, which is what sees the race. */
    rounds = BB_TEST_UNDER_TSAN ? 5000 : BB_TEST_SIZE(5000, 300);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    /* Every handle exists before any ES serves the pool. */
    for (int i = 0; i < NUM_SUSPENDERS; i++)
        CHECK_OK(ABT_thread_create(pool, suspend_repeatedly, (void *)(intptr_t)i,
                                   ABT_THREAD_ATTR_NULL, &suspenders[i]));
    ABT_thread resumer, yielders[NUM_YIELDERS];
    CHECK_OK(ABT_thread_create(pool, resume_all, NULL, ABT_THREAD_ATTR_NULL, &resumer));
    for (int i = 0; i < NUM_YIELDERS; i++)
        CHECK_OK(ABT_thread_create(pool, yield_to_random, (void *)(intptr_t)(i + 1),
                                   ABT_THREAD_ATTR_NULL, &yielders[i]));
    ABT_xstream es[NUM_ES];
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL,
                                          &es[i]));

    CHECK_OK(ABT_thread_free(&resumer));
    atomic_store(&stop, 1);
    for (int i = 0; i < NUM_YIELDERS; i++)
        CHECK_OK(ABT_thread_free(&yielders[i]));
    for (int i = 0; i < NUM_SUSPENDERS; i++)
        CHECK_OK(ABT_thread_free(&suspenders[i]));
    CHECK_EQ(atomic_load(&finished), NUM_SUSPENDERS);
    for (int i = 0; i < NUM_ES; i++)
        CHECK_OK(ABT_xstream_free(&es[i]));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
