/* No shortcut of the critical path (src/unit/hotpath.c) is taken while a tool
 * callback is registered, so every event still fires: on the primary ES,
 * switched to a BASIC scheduler over one private FIFO pool (where all three
 * shortcuts would apply) and with warm unit caches, ULTs that yield, ULTs
 * that ping-pong with yield_to, and tasklets, created, joined and freed,
 * each report CREATE once first, RUN once per yield plus one, YIELD once per
 * yield, FINISH once, JOIN, and FREE once last; the primary ULT, blocked in
 * joins, reports SUSPEND, RESUME and RUN. The join bypass is off while
 * registered (a joined ULT waits its turn behind one queued before it) and
 * back after registering NULL (it runs first), with no more events. */
#include "bb_test.h"
#include <pthread.h>

#define NYIELDS 5
#define PINGS 4
#define MAX_UNITS 64

enum { EV_CREATE, EV_JOIN, EV_FREE, EV_REVIVE, EV_RUN, EV_FINISH, EV_CANCEL, EV_YIELD,
       EV_SUSPEND, EV_RESUME, EV_OTHER, NUM_EV };

static struct {
    ABT_thread h;
    int closed;
    int first, last; /* first and last event kinds */
    int count[NUM_EV];
} units[MAX_UNITS];
static int nunits, overflow, orphan_events, total_events;
static ABT_thread primary;
static int primary_count[NUM_EV];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int kind_of(uint64_t event)
{
    switch (event) {
    case ABT_TOOL_EVENT_THREAD_CREATE: return EV_CREATE;
    case ABT_TOOL_EVENT_THREAD_JOIN: return EV_JOIN;
    case ABT_TOOL_EVENT_THREAD_FREE: return EV_FREE;
    case ABT_TOOL_EVENT_THREAD_REVIVE: return EV_REVIVE;
    case ABT_TOOL_EVENT_THREAD_RUN: return EV_RUN;
    case ABT_TOOL_EVENT_THREAD_FINISH: return EV_FINISH;
    case ABT_TOOL_EVENT_THREAD_CANCEL: return EV_CANCEL;
    case ABT_TOOL_EVENT_THREAD_YIELD: return EV_YIELD;
    case ABT_TOOL_EVENT_THREAD_SUSPEND: return EV_SUSPEND;
    case ABT_TOOL_EVENT_THREAD_RESUME: return EV_RESUME;
    default: return EV_OTHER;
    }
}

static void on_event(ABT_thread unit, ABT_xstream es, uint64_t event, ABT_tool_context ctx,
                     void *arg)
{
    (void)es;
    (void)ctx;
    (void)arg;
    int k = kind_of(event);
    pthread_mutex_lock(&lock);
    total_events++;
    int i = -1;
    if (k == EV_CREATE) {
        if (nunits < MAX_UNITS) {
            i = nunits++;
            units[i].h = unit;
            units[i].first = k;
        } else
            overflow++;
    } else {
        /* Handles are reused once freed: the open entry is the one. */
        for (int j = nunits - 1; j >= 0; j--)
            if (units[j].h == unit && !units[j].closed) {
                i = j;
                break;
            }
        if (i < 0 && unit == primary)
            primary_count[k]++; /* blocked in a join */
        else if (i < 0)
            orphan_events++;
    }
    if (i >= 0) {
        units[i].count[k]++;
        units[i].last = k;
        if (k == EV_FREE)
            units[i].closed = 1;
    }
    pthread_mutex_unlock(&lock);
}

static int find_unit(ABT_thread h)
{
    for (int j = nunits - 1; j >= 0; j--)
        if (units[j].h == h)
            return j;
    return -1;
}

static char seq[16];
static int nseq;

static void note(void *arg)
{
    if (nseq < (int)sizeof(seq) - 1)
        seq[nseq++] = (char)(intptr_t)arg;
    seq[nseq] = '\0';
}

static int yields_done;

static void yielder(void *arg)
{
    (void)arg;
    for (int i = 0; i < NYIELDS; i++) {
        ABT_thread_yield();
        yields_done++;
    }
}

static ABT_thread ping_t, pong_t;
static int pings;

static void ping(void *arg)
{
    ABT_thread *other = arg;
    for (int i = 0; i < PINGS; i++) {
        pings++;
        ABT_thread_yield_to(*other);
    }
}

static int task_runs;

static void task(void *arg)
{
    (void)arg;
    task_runs++;
}

/* Creates and frees, so that the caches hold units for the create shortcut. */
static void warm(ABT_pool pool)
{
    ABT_thread t[8];
    ABT_task k[8];
    for (int i = 0; i < 8; i++) {
        CHECK_OK(ABT_thread_create(pool, task, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
        CHECK_OK(ABT_task_create(pool, task, NULL, &k[i]));
    }
    for (int i = 0; i < 8; i++) {
        CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_OK(ABT_task_free(&k[i]));
    }
}

/* Joining T, queued behind A: the join order tells whether T was bypassed. */
static void join_order(ABT_pool pool)
{
    ABT_thread a, t;
    nseq = 0;
    seq[0] = '\0';
    CHECK_OK(ABT_thread_create(pool, note, (void *)(intptr_t)'a', ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_create(pool, note, (void *)(intptr_t)'t', ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_thread_free(&a));
}

static ABT_thread y1, y2;
static ABT_task k1, k2;

static void workload(ABT_pool pool)
{
    yields_done = pings = task_runs = 0;
    CHECK_OK(ABT_thread_create(pool, yielder, NULL, ABT_THREAD_ATTR_NULL, &y1));
    CHECK_OK(ABT_thread_create(pool, yielder, NULL, ABT_THREAD_ATTR_NULL, &y2));
    CHECK_OK(ABT_thread_create(pool, ping, &pong_t, ABT_THREAD_ATTR_NULL, &ping_t));
    CHECK_OK(ABT_thread_create(pool, ping, &ping_t, ABT_THREAD_ATTR_NULL, &pong_t));
    CHECK_OK(ABT_task_create(pool, task, NULL, &k1));
    CHECK_OK(ABT_task_create(pool, task, NULL, &k2));
    CHECK_OK(ABT_task_join(k1));
    CHECK_OK(ABT_thread_join(y2));
    CHECK_OK(ABT_thread_join(ping_t));
    CHECK_OK(ABT_thread_join(pong_t));
    CHECK_EQ(yields_done, 2 * NYIELDS);
    CHECK_EQ(pings, 2 * PINGS);
    CHECK_EQ(task_runs, 2);
}

static void free_workload(void)
{
    CHECK_OK(ABT_thread_free(&y1));
    CHECK_OK(ABT_thread_free(&y2));
    CHECK_OK(ABT_thread_free(&ping_t));
    CHECK_OK(ABT_thread_free(&pong_t));
    CHECK_OK(ABT_task_free(&k1));
    CHECK_OK(ABT_task_free(&k2));
}

static void check_unit(const char *name, ABT_thread h, int yields)
{
    int i = find_unit(h);
    if (i < 0) {
        BB_FAIL_AT("%s: no CREATE event", name);
        return;
    }
    int *c = units[i].count;
    if (c[EV_CREATE] != 1 || c[EV_RUN] != yields + 1 || c[EV_YIELD] != yields ||
        c[EV_FINISH] != 1 || c[EV_JOIN] < 1 || c[EV_FREE] != 1 || units[i].first != EV_CREATE ||
        units[i].last != EV_FREE || c[EV_SUSPEND] || c[EV_CANCEL] || c[EV_OTHER])
        BB_FAIL_AT("%s: create %d run %d (want %d) yield %d (want %d) finish %d join %d free %d "
                   "suspend %d, first %d last %d",
                   name, c[EV_CREATE], c[EV_RUN], yields + 1, c[EV_YIELD], yields,
                   c[EV_FINISH], c[EV_JOIN], c[EV_FREE], c[EV_SUSPEND], units[i].first,
                   units[i].last);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    unsetenv("ABT_OPT_JOIN_BYPASS"); /* the bypass with no tool, whatever the environment says */
    unsetenv("ABT_ENV_OPT_JOIN_BYPASS");
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream self_es;
    ABT_pool priv;
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self_es, ABT_SCHED_BASIC, 1, &priv));
    warm(priv);

    /* Shortcuts on: T is bypassed. */
    join_order(priv);
    CHECK(strcmp(seq, "ta") == 0);

    CHECK_OK(ABT_self_get_thread(&primary));
    CHECK_OK(ABT_tool_register_thread_callback(on_event, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    join_order(priv);
    CHECK(strcmp(seq, "at") == 0); /* no bypass while a tool listens */
    workload(priv);
    ABT_thread hy1 = y1, hy2 = y2, hp = ping_t, hq = pong_t;
    ABT_task hk1 = k1, hk2 = k2;
    free_workload();
    check_unit("yielder 1", hy1, NYIELDS);
    check_unit("yielder 2", hy2, NYIELDS);
    check_unit("ping", hp, PINGS);
    check_unit("pong", hq, PINGS);
    check_unit("tasklet 1", hk1, 0);
    check_unit("tasklet 2", hk2, 0);
    CHECK_EQ(overflow, 0);
    CHECK_EQ(orphan_events, 0);
    /* The primary ULT blocked in joins: each suspension resumed and ran. */
    CHECK(primary_count[EV_SUSPEND] >= 1);
    CHECK_EQ(primary_count[EV_RESUME], primary_count[EV_SUSPEND]);
    CHECK_EQ(primary_count[EV_RUN], primary_count[EV_SUSPEND]);
    /* join_order's two units and the workload's six, nothing else. */
    CHECK_EQ(nunits, 8);
    for (int i = 0; i < nunits; i++)
        CHECK(units[i].closed);

    /* Unregistered: no more events, the bypass is back. */
    CHECK_OK(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_ALL, NULL));
    int before = total_events;
    join_order(priv);
    CHECK(strcmp(seq, "ta") == 0);
    workload(priv);
    free_workload();
    CHECK_EQ(total_events, before);

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
