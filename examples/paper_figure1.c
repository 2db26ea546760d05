/*
 * The Argobots execution model of the paper's Figure 1, built for real:
 *
 *        ES_1 (primary ES)                      ES_2
 *   S_M1: user-defined main scheduler      S_M2: BASIC main scheduler
 *     |-- P_M11  private pool:               |-- P_M21  private pool
 *     |     main ULT, work ULTs,             |-- P_M22  private pool
 *     |     stacked schedulers S_1, S_2      |
 *     |-- P_S  ------- shared pool ----------'
 *     '-- P_E  event pool, looked at every EVENT_FREQ iterations
 *
 *   S_1: stacked BASIC scheduler over P_1 (work ULTs that yield)
 *   S_2: stacked BASIC scheduler over P_2 (work tasklets)
 *
 * "Private" means that one scheduler pops from the pool. Other ESs may
 * still push into it (the main ULT fills ES_2's pools from ES_1, ES_2 posts
 * events into P_E, and the main ULT, waiting in ABT_xstream_free for ES_2,
 * may be woken into P_M11 from ES_2), so those pools are MPSC; P_1 and P_2
 * are only ever touched by ES_1, so they are PRIV.
 *
 * The event pool holds event-handling tasklets. The main ULT posts some of
 * them, and the work ULTs of P_M22 post the others from ES_2 (think of a
 * network progress engine). S_M1 does not treat P_E as a work pool: every
 * EVENT_FREQ iterations it handles the events that have arrived, then looks
 * at its ES's requests (ABT_xstream_check_events + ABT_sched_has_to_stop).
 *
 * Every unit checks where it runs (ES and pool), and the main ULT waits
 * until every pool's quota has run. The program prints a table of which ES
 * ran what and exits 0 only if every check passed.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <abt.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define EVENT_FREQ 16          /* S_M1 looks at P_E every 16 iterations */
#define MAX_EVENTS_PER_CHECK 4 /* and handles at most this many events then */

/* The pools of the figure, and how much work each one gets. */
enum { K_M11, K_S1, K_S2, K_M21, K_M22, K_S, K_E, NUM_KINDS };
static const char *kind_name[NUM_KINDS] = {
    "P_M11 (S_M1 private)", "P_1 (stacked S_1)", "P_2 (stacked S_2)",
    "P_M21 (S_M2 private)", "P_M22 (S_M2 private)", "P_S (shared)", "P_E (events)"};
/* Which ES must run each kind: rank 0 is ES_1, rank 1 is ES_2, -1 either. */
static const int kind_es[NUM_KINDS] = {0, 0, 0, 1, 1, -1, 0};
#define NUM_MAIN_EVENTS 8
static const int quota[NUM_KINDS] = {8, 8, 8, 8, 8, 32, NUM_MAIN_EVENTS + 8 /* one per P_M22 unit */};

static ABT_pool pool_of[NUM_KINDS];
static atomic_int ran[NUM_KINDS][2]; /* units run, per pool and per ES */
static atomic_int failures;          /* checks that failed inside units */

/* What S_M1 reports about itself (only ES_1 writes these). */
static struct {
    unsigned long iterations, event_checks, events_handled, work_units;
} sm1_stats;
static unsigned long sm1_current_iter; /* the iteration S_M1 is in */

static void fail(const char *what)
{
    fprintf(stderr, "check failed: %s\n", what);
    atomic_fetch_add(&failures, 1);
}

static void check(int ret, const char *what)
{
    if (ret != ABT_SUCCESS) {
        fprintf(stderr, "%s failed: %d\n", what, ret);
        exit(1);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A bit of computation, so that the units take some time. */
static atomic_uint spin_sink; /* keeps the loop from being optimised away */
static void spin(int n)
{
    unsigned x = 0;
    for (int i = 0; i < n; i++)
        x = x * 31u + (unsigned)i;
    atomic_store_explicit(&spin_sink, x, memory_order_relaxed);
}

/* Every unit starts by checking that it runs where the figure says. */
static int where_am_i(int kind)
{
    int rank;
    ABT_pool pool;
    check(ABT_self_get_xstream_rank(&rank), "ABT_self_get_xstream_rank");
    check(ABT_self_get_last_pool(&pool), "ABT_self_get_last_pool");
    if (rank < 0 || rank > 1)
        fail("a unit ran on an ES that is not in the figure");
    else if (kind_es[kind] >= 0 && rank != kind_es[kind])
        fail("a unit ran on the wrong ES");
    if (pool != pool_of[kind])
        fail("a unit is not associated with the pool it was created in");
    return rank < 0 || rank > 1 ? 0 : rank;
}

/* ---- event handlers (tasklets in P_E) ---------------------------------- */

static void on_event(void *arg)
{
    (void)arg;
    int rank = where_am_i(K_E);
    /* Only S_M1's periodic check may run an event. */
    if (sm1_current_iter % EVENT_FREQ != 0)
        fail("an event was handled outside S_M1's periodic event check");
    atomic_fetch_add(&ran[K_E][rank], 1);
}

static void post_event(void)
{
    check(ABT_task_create(pool_of[K_E], on_event, NULL, NULL), "post an event");
}

/* ---- work units -------------------------------------------------------- */

static void work_ult(void *arg)
{
    int kind = (int)(size_t)arg;
    where_am_i(kind);
    spin(20000);
    /* Yield once: the ULT goes back to its own pool, and the scheduler that
     * ran it (S_1 for P_1, S_M2 for P_M21, ...) picks the next unit. */
    check(ABT_thread_yield(), "ABT_thread_yield");
    int rank = where_am_i(kind);
    spin(20000);
    if (kind == K_M22)
        post_event(); /* an asynchronous event from ES_2 for ES_1 */
    atomic_fetch_add(&ran[kind][rank], 1);
}

static void work_tasklet(void *arg)
{
    int kind = (int)(size_t)arg;
    int rank = where_am_i(kind);
    spin(20000);
    atomic_fetch_add(&ran[kind][rank], 1);
}

/* ---- S_M1: a main scheduler with an event pool ------------------------- */

/* Configuration variable 0 of S_M1: the event period. */
static ABT_sched_config_var cv_event_freq = {.idx = 0, .type = ABT_SCHED_CONFIG_INT};

typedef struct {
    int event_freq;
    unsigned long iter; /* kept across run() calls */
} sm1_data;

static int sm1_init(ABT_sched sched, ABT_sched_config config)
{
    sm1_data *d = calloc(1, sizeof(*d));
    if (!d)
        return ABT_ERR_MEM;
    d->event_freq = 50; /* the default if the config does not say */
    if (config != ABT_SCHED_CONFIG_NULL)
        ABT_sched_config_read(config, 1, &d->event_freq);
    return ABT_sched_set_data(sched, d);
}

/* The work pools are served round-robin (the first pool tried rotates every
 * iteration), so that the main ULT, which keeps yielding into P_M11 while it
 * waits, does not keep S_M1 away from the shared pool. The last pool is the
 * event pool, looked at every event_freq iterations only. */
static void sm1_run(ABT_sched sched)
{
    sm1_data *d;
    int num_pools;
    ABT_pool pools[8];
    check(ABT_sched_get_data(sched, (void **)&d), "ABT_sched_get_data");
    check(ABT_sched_get_num_pools(sched, &num_pools), "ABT_sched_get_num_pools");
    if (num_pools < 2 || num_pools > 8)
        abort();
    check(ABT_sched_get_pools(sched, num_pools, 0, pools), "ABT_sched_get_pools");
    ABT_pool event_pool = pools[num_pools - 1];
    int num_work_pools = num_pools - 1;

    for (;;) {
        unsigned long it = d->iter++;
        sm1_current_iter = it;
        sm1_stats.iterations++;

        if (it % (unsigned long)d->event_freq == 0) {
            /* The periodic part: events first, then the ES's requests. */
            sm1_stats.event_checks++;
            for (int k = 0; k < MAX_EVENTS_PER_CHECK; k++) {
                ABT_unit unit;
                check(ABT_pool_pop(event_pool, &unit), "pop the event pool");
                if (unit == ABT_UNIT_NULL)
                    break;
                check(ABT_xstream_run_unit(unit, event_pool), "run an event");
                sm1_stats.events_handled++;
            }
            ABT_bool stop;
            check(ABT_xstream_check_events(sched), "ABT_xstream_check_events");
            check(ABT_sched_has_to_stop(sched, &stop), "ABT_sched_has_to_stop");
            if (stop)
                break;
        }

        for (int k = 0; k < num_work_pools; k++) {
            ABT_pool pool = pools[(it + (unsigned long)k) % (unsigned long)num_work_pools];
            ABT_unit unit;
            check(ABT_pool_pop(pool, &unit), "pop a work pool");
            if (unit != ABT_UNIT_NULL) {
                /* The unit may be a stacked scheduler: it then runs its own
                 * loop and returns here when it yields or is done. */
                check(ABT_xstream_run_unit(unit, pool), "run a unit");
                sm1_stats.work_units++;
                break;
            }
        }
    }
}

static int sm1_free(ABT_sched sched)
{
    sm1_data *d;
    if (ABT_sched_get_data(sched, (void **)&d) == ABT_SUCCESS)
        free(d);
    return ABT_SUCCESS;
}

/* ---- main ---------------------------------------------------------------- */

static int all_done(void)
{
    for (int k = 0; k < NUM_KINDS; k++)
        if (atomic_load(&ran[k][0]) + atomic_load(&ran[k][1]) < quota[k])
            return 0;
    return 1;
}

static ABT_pool new_pool(ABT_pool_access access)
{
    ABT_pool pool;
    /* Automatic: freed with the last scheduler that uses it. */
    check(ABT_pool_create_basic(ABT_POOL_FIFO, access, ABT_TRUE, &pool), "ABT_pool_create_basic");
    return pool;
}

/* A stacked BASIC scheduler over its own pool (automatic: it is freed, with
 * the pool, once it has drained the pool and stopped). */
static void stack_sched(ABT_pool parent, ABT_pool own)
{
    ABT_sched sched;
    check(ABT_sched_create_basic(ABT_SCHED_BASIC, 1, &own, ABT_SCHED_CONFIG_NULL, &sched),
          "create a stacked scheduler");
    check(ABT_pool_add_sched(parent, sched), "ABT_pool_add_sched");
}

int main(int argc, char **argv)
{
    check(ABT_init(argc, argv), "ABT_init");

    pool_of[K_M11] = new_pool(ABT_POOL_ACCESS_MPSC);
    pool_of[K_S1] = new_pool(ABT_POOL_ACCESS_PRIV);
    pool_of[K_S2] = new_pool(ABT_POOL_ACCESS_PRIV);
    pool_of[K_M21] = new_pool(ABT_POOL_ACCESS_MPSC);
    pool_of[K_M22] = new_pool(ABT_POOL_ACCESS_MPSC);
    pool_of[K_S] = new_pool(ABT_POOL_ACCESS_MPMC);
    pool_of[K_E] = new_pool(ABT_POOL_ACCESS_MPSC);

    /* ES_1 = the primary ES, with S_M1 over P_M11, P_S and (last) P_E. The
     * main ULT moves into S_M1's first pool, P_M11. */
    ABT_sched_def sm1_def = {.type = ABT_SCHED_TYPE_ULT, .init = sm1_init, .run = sm1_run,
                             .free = sm1_free, .get_migr_pool = NULL};
    ABT_sched_config config;
    check(ABT_sched_config_create(&config, cv_event_freq, EVENT_FREQ,
                                  ABT_sched_config_automatic, 1, ABT_sched_config_var_end),
          "ABT_sched_config_create");
    ABT_pool sm1_pools[3] = {pool_of[K_M11], pool_of[K_S], pool_of[K_E]};
    ABT_sched sm1;
    check(ABT_sched_create(&sm1_def, 3, sm1_pools, config, &sm1), "create S_M1");
    check(ABT_sched_config_free(&config), "ABT_sched_config_free");
    ABT_xstream es1, es2;
    check(ABT_xstream_self(&es1), "ABT_xstream_self");
    check(ABT_xstream_set_main_sched(es1, sm1), "make S_M1 ES_1's main scheduler");

    /* ES_2, with S_M2 = BASIC over P_M21, P_M22 and P_S. */
    ABT_pool sm2_pools[3] = {pool_of[K_M21], pool_of[K_M22], pool_of[K_S]};
    check(ABT_xstream_create_basic(ABT_SCHED_BASIC, 3, sm2_pools, ABT_SCHED_CONFIG_NULL, &es2),
          "create ES_2");

    /* The stacked schedulers get their work first, then go into P_M11
     * (a stacked scheduler stops once its pools are empty). */
    for (int i = 0; i < quota[K_S1]; i++)
        check(ABT_thread_create(pool_of[K_S1], work_ult, (void *)(size_t)K_S1,
                                ABT_THREAD_ATTR_NULL, NULL),
              "create a ULT in P_1");
    for (int i = 0; i < quota[K_S2]; i++)
        check(ABT_task_create(pool_of[K_S2], work_tasklet, (void *)(size_t)K_S2, NULL),
              "create a tasklet in P_2");
    stack_sched(pool_of[K_M11], pool_of[K_S1]);
    stack_sched(pool_of[K_M11], pool_of[K_S2]);

    /* Work for the other pools (unnamed units: nobody joins them). */
    const int ult_kinds[] = {K_M11, K_M21, K_M22, K_S};
    for (size_t j = 0; j < sizeof(ult_kinds) / sizeof(ult_kinds[0]); j++) {
        int kind = ult_kinds[j];
        for (int i = 0; i < quota[kind]; i++)
            check(ABT_thread_create(pool_of[kind], work_ult, (void *)(size_t)kind,
                                    ABT_THREAD_ATTR_NULL, NULL),
                  "create a work ULT");
    }

    /* The main ULT posts events between bits of its own work... */
    for (int e = 0; e < NUM_MAIN_EVENTS; e++) {
        post_event();
        for (int y = 0; y < 4; y++)
            check(ABT_thread_yield(), "ABT_thread_yield");
    }
    /* ...then yields until every pool has had its quota run. */
    double deadline = now() + 20.0;
    while (!all_done()) {
        if (now() > deadline) {
            fail("timed out waiting for the units");
            break;
        }
        check(ABT_thread_yield(), "ABT_thread_yield");
    }

    check(ABT_xstream_free(&es2), "ABT_xstream_free"); /* joins ES_2 */
    check(ABT_finalize(), "ABT_finalize");              /* frees S_M1 and its pools */

    /* ---- the summary ---- */
    printf("%-22s %6s %6s %6s\n", "pool", "units", "ES_1", "ES_2");
    for (int k = 0; k < NUM_KINDS; k++) {
        int n1 = atomic_load(&ran[k][0]), n2 = atomic_load(&ran[k][1]);
        printf("%-22s %6d %6d %6d\n", kind_name[k], quota[k], n1, n2);
        if (n1 + n2 != quota[k])
            fail("a pool did not run exactly its quota");
    }
    printf("S_M1: %lu iterations, %lu event checks (every %d), %lu events handled, "
           "%lu turns given to units of P_M11/P_S (a stacked scheduler's turn counts once)\n",
           sm1_stats.iterations, sm1_stats.event_checks, EVENT_FREQ,
           sm1_stats.events_handled, sm1_stats.work_units);
    if (sm1_stats.events_handled != (unsigned long)quota[K_E])
        fail("S_M1 did not handle every event");

    int failed = atomic_load(&failures);
    printf("%s\n", failed ? "FAILED" : "all checks passed");
    return failed ? 1 : 0;
}
