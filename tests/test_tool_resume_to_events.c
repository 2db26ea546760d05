/* A ULT resumed by ABT_self_resume_yield_to, ABT_self_resume_suspend_to or
 * ABT_self_resume_exit_to is heard by a tool as by ABT_thread_resume: its
 * RESUME event, with the resuming ULT as caller, comes after its SUSPEND
 * and before it runs again. */
#include "bb_test.h"
#include <pthread.h>

enum { MAX_EVENTS = 64 };

static struct {
    uint64_t event;
    ABT_thread caller;
} events[MAX_EVENTS];
static int num_events;
static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;
static ABT_thread sleeper, resumer;

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)es;
    (void)arg;
    if (unit != sleeper)
        return;
    ABT_thread caller = ABT_THREAD_NULL;
    ABT_tool_query_thread(ctx, event, ABT_TOOL_QUERY_KIND_CALLER_HANDLE, &caller);
    pthread_mutex_lock(&events_lock);
    if (num_events < MAX_EVENTS) {
        events[num_events].event = event;
        events[num_events].caller = caller;
        num_events++;
    }
    pthread_mutex_unlock(&events_lock);
}

static void sleep_once(void *arg)
{
    (void)arg;
    ABT_self_suspend();
}

static void resume_it(void *arg)
{
    int how = (int)(intptr_t)arg;
    if (how == 0)
        CHECK_OK(ABT_self_resume_yield_to(sleeper));
    else if (how == 1)
        CHECK_OK(ABT_self_resume_suspend_to(sleeper));
    else
        CHECK_OK(ABT_self_resume_exit_to(sleeper));
}

static int find(uint64_t event, int from)
{
    for (int i = from; i < num_events; i++)
        if (events[i].event == event)
            return i;
    return -1;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_self_get_xstream(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    uint64_t mask = ABT_TOOL_EVENT_THREAD_SUSPEND | ABT_TOOL_EVENT_THREAD_RESUME |
                    ABT_TOOL_EVENT_THREAD_RUN;
    CHECK_OK(ABT_tool_register_thread_callback(on_event, mask, NULL));
    const char *names[3] = {"resume_yield_to", "resume_suspend_to", "resume_exit_to"};
    for (int how = 0; how < 3; how++) {
        num_events = 0;
        CHECK_OK(ABT_thread_create(pool, sleep_once, NULL, ABT_THREAD_ATTR_NULL, &sleeper));
        ABT_thread_state state = ABT_THREAD_STATE_READY;
        while (state != ABT_THREAD_STATE_BLOCKED) {
            CHECK_OK(ABT_self_yield());
            CHECK_OK(ABT_thread_get_state(sleeper, &state));
        }
        CHECK_OK(ABT_thread_create(pool, resume_it, (void *)(intptr_t)how, ABT_THREAD_ATTR_NULL,
                                   &resumer));
        CHECK_OK(ABT_thread_free(&sleeper));
        if (how == 1) /* the resumer suspended itself in the handover */
            CHECK_OK(ABT_thread_resume(resumer));
        CHECK_OK(ABT_thread_free(&resumer));
        int suspend = find(ABT_TOOL_EVENT_THREAD_SUSPEND, 0);
        int resume = suspend < 0 ? -1 : find(ABT_TOOL_EVENT_THREAD_RESUME, suspend);
        int run_again = resume < 0 ? -1 : find(ABT_TOOL_EVENT_THREAD_RUN, resume);
        if (suspend < 0 || resume < 0 || run_again < 0)
            fprintf(stderr, "%s: events of the resumed ULT: %d, suspend at %d, resume at %d, "
                            "run again at %d\n",
                    names[how], num_events, suspend, resume, run_again);
        CHECK(suspend >= 0 && resume > suspend && run_again > resume);
    }
    CHECK_OK(ABT_tool_register_thread_callback(NULL, 0, NULL));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
