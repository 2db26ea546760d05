/* A cancel that reaches a ULT after its THREAD_RUN event was reported (here:
 * from the RUN callback itself, which may call the API) must not end the
 * ULT with a THREAD_CANCEL right after that RUN: a tool counts RUN as the
 * start of a run that FINISH, YIELD or SUSPEND ends (as in Argobots, which
 * checks for a cancel before it reports RUN, and serves a later one at the
 * next scheduling point). The three ways a fresh ULT starts: by its
 * scheduler, handed over (ABT_thread_yield_to) and child-first
 * (ABT_thread_create_to). */
#include "bb_test.h"
#include <pthread.h>
#include <stdbool.h>

enum { MAX_EVENTS = 64 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ABT_thread watched; /* set before the unit can run */
static uint64_t events[MAX_EVENTS];
static int num_events;
static int cancels_sent;

/* Under `lock`: records `event` if it is the watched unit's (`mine`), and
 * says whether to cancel that unit now: at its first RUN. */
static bool note_event_locked(bool mine, uint64_t event)
{
    if (mine && num_events < MAX_EVENTS)
        events[num_events++] = event;
    bool cancel = mine && event == ABT_TOOL_EVENT_THREAD_RUN && cancels_sent == 0;
    if (cancel)
        cancels_sent++;
    return cancel;
}

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)es, (void)ctx, (void)arg;
    pthread_mutex_lock(&lock);
    bool cancel = note_event_locked(watched != ABT_THREAD_NULL && unit == watched, event);
    pthread_mutex_unlock(&lock);
    if (cancel)
        ABT_thread_cancel(unit);
}

static int ran;
static void body(void *arg)
{
    (void)arg;
    ran++;
}

static ABT_pool pool;

static void start(int how)
{
    pthread_mutex_lock(&lock);
    num_events = 0;
    cancels_sent = 0;
    watched = ABT_THREAD_NULL;
    pthread_mutex_unlock(&lock);
    ABT_thread t;
    if (how == 0) {
        CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
        pthread_mutex_lock(&lock);
        watched = t;
        pthread_mutex_unlock(&lock);
        CHECK_OK(ABT_thread_free(&t)); /* the scheduler starts it (no bypass with a tool) */
    } else {
        CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
        pthread_mutex_lock(&lock);
        watched = t;
        pthread_mutex_unlock(&lock);
        CHECK_OK(ABT_thread_yield_to(t));
        CHECK_OK(ABT_thread_free(&t));
    }
}

static ABT_thread cf_child;
static void on_event_cf(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                        void *arg)
{
    (void)es, (void)ctx, (void)arg;
    pthread_mutex_lock(&lock);
    if (event == ABT_TOOL_EVENT_THREAD_CREATE && cf_child == ABT_THREAD_NULL)
        cf_child = unit; /* the child of create_to: its CREATE comes first */
    bool cancel = note_event_locked(unit == cf_child, event);
    pthread_mutex_unlock(&lock);
    if (cancel)
        ABT_thread_cancel(unit);
}

/* After each RUN, the next event is one that ends the run. */
static void check_sequence(const char *what)
{
    pthread_mutex_lock(&lock);
    int bad = 0, runs = 0;
    for (int i = 0; i < num_events; i++) {
        if (events[i] != ABT_TOOL_EVENT_THREAD_RUN)
            continue;
        runs++;
        uint64_t next = i + 1 < num_events ? events[i + 1] : 0;
        if (next != ABT_TOOL_EVENT_THREAD_FINISH && next != ABT_TOOL_EVENT_THREAD_YIELD &&
            next != ABT_TOOL_EVENT_THREAD_SUSPEND) {
            printf("%s: RUN followed by event %#llx\n", what, (unsigned long long)next);
            bad++;
        }
    }
    pthread_mutex_unlock(&lock);
    CHECK_EQ(runs, 1);
    CHECK_EQ(bad, 0);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, NULL));

    start(0);
    check_sequence("scheduler");
    start(1);
    check_sequence("yield_to");

    pthread_mutex_lock(&lock);
    num_events = 0;
    cancels_sent = 0;
    cf_child = ABT_THREAD_NULL;
    pthread_mutex_unlock(&lock);
    CHECK_OK(ABT_tool_register_thread_callback(on_event_cf, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    ABT_thread t;
    CHECK_OK(ABT_thread_create_to(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    check_sequence("create_to");

    CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
