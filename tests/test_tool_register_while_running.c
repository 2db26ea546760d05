/* Tool callbacks registered and unregistered, with changing masks, while
 * ULTs on two ESs are created, yield and are freed (a stress audit found
 * that ThreadSanitizer reported the event sites' read of the mask as a race
 * with the registration: they now read it atomically, still in one
 * instruction). Each callback only ever sees events of the mask it was
 * registered with. The registrations stop after `rounds` or TIME_BUDGET_S
 * seconds, whichever comes first: each sched_yield waits for the two busy
 * ESs' time slices when they share the CPU (a loaded machine: some 30 s for
 * 3000 rounds on one CPU with two other busy threads), and the test must end
 * before its watchdog. */
#include "bb_test.h"
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define TIME_BUDGET_S 20

static atomic_int stop, outside_mask;
static atomic_long events;
static const uint64_t masks[3] = {
    ABT_TOOL_EVENT_THREAD_CREATE | ABT_TOOL_EVENT_THREAD_FREE,
    ABT_TOOL_EVENT_THREAD_RUN | ABT_TOOL_EVENT_THREAD_FINISH | ABT_TOOL_EVENT_THREAD_YIELD,
    ABT_TOOL_EVENT_THREAD_ALL,
};

static void on_event(ABT_thread thread, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)thread;
    (void)es;
    (void)ctx;
    if (!(event & *(const uint64_t *)arg))
        atomic_fetch_add(&outside_mask, 1);
    atomic_fetch_add(&events, 1);
}

static void child(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_yield());
}

static void worker(void *arg)
{
    ABT_pool pool = arg;
    while (!atomic_load(&stop)) {
        ABT_thread t[4];
        for (int i = 0; i < 4; i++)
            CHECK_OK(ABT_thread_create(pool, child, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_thread_yield());
        for (int i = 0; i < 4; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pools[2];
    ABT_xstream es[2];
    ABT_thread workers[2];
    for (int e = 0; e < 2; e++) {
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_TRUE, &pools[e]));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pools[e], ABT_SCHED_CONFIG_NULL,
                                          &es[e]));
        CHECK_OK(ABT_thread_create(pools[e], worker, pools[e], ABT_THREAD_ATTR_NULL, &workers[e]));
    }
    int rounds = BB_TEST_SIZE(3000, 300), r;
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (r = 0; r < rounds; r++) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        if (r >= 100 && t.tv_sec - t0.tv_sec > TIME_BUDGET_S)
            break;
        const uint64_t *mask = &masks[r % 3];
        CHECK_OK(ABT_tool_register_thread_callback(on_event, *mask, (void *)mask));
        sched_yield();
        CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_NONE, NULL));
    }
    atomic_store(&stop, 1);
    for (int e = 0; e < 2; e++) {
        CHECK_OK(ABT_thread_free(&workers[e]));
        CHECK_OK(ABT_xstream_free(&es[e]));
    }
    CHECK_OK(ABT_finalize());
    CHECK_EQ(atomic_load(&outside_mask), 0);
    printf("%ld events in %d registrations\n", atomic_load(&events), r);
    BB_TEST_END();
}
