/*
 * A user-defined scheduler over a user-defined pool that runs work units in
 * an order the user chooses, in the spirit of the paper's XSBench port: each
 * lookup touches a table around a random index, so running the lookups in
 * ascending index order walks the table front to back instead of jumping
 * around it.
 *
 * - The pool (ABT_pool_user_def_create) is a binary min-heap. Each ULT's
 *   argument starts with its key; the pool's create_unit callback reads it
 *   with ABT_thread_get_arg and stores it in the unit, so pops come out in
 *   key order whatever order the pushes came in.
 * - The scheduler (ABT_sched_def with init/run/free) serves two pools: the
 *   heap first, and a FIFO holding a "driver" ULT that creates the lookups in
 *   batches. Because the driver only gets a turn when the heap is empty, a
 *   whole batch is in the heap before the first lookup of it runs (XSBench
 *   also creates a batch before scheduling it), and the batch then runs in
 *   key order.
 *
 * Two ESs each get their own scheduler, heap and driver. Each lookup records
 * its key in its ES's log; the program checks that every batch ran in
 * ascending key order, on the right ES, and that the lookups' results add up.
 *   usage: sorted_scheduler [batches] [batch size]   (default 4 x 500)
 */
#define _POSIX_C_SOURCE 200809L /* rand_r */
#include <abt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NUM_ES 2
#define GRID_SIZE (1 << 20) /* entries of the table the lookups read */
#define WINDOW 32           /* entries each lookup reads, from its key on */

static double *grid;
static int num_batches = 4, batch_size = 500;

static void check(int ret, const char *what)
{
    if (ret != ABT_SUCCESS) {
        fprintf(stderr, "%s failed: %d\n", what, ret);
        exit(1);
    }
}

/* ---- the sorted pool: a binary min-heap of units ---------------------- */

/* Every ULT pushed into a sorted pool has an argument that starts with this. */
typedef struct {
    long key;
} keyed;

/* A unit of the sorted pool. The runtime treats ABT_unit as an opaque value
 * (with its two low bits clear, which malloc guarantees). */
typedef struct {
    ABT_thread thread;
    long key;
    unsigned long seq; /* push order: equal keys run first-in first-out */
} heap_unit;

typedef struct {
    pthread_mutex_t lock;
    heap_unit **a;
    size_t n, cap;
    unsigned long next_seq;
} heap;

static int before(const heap_unit *x, const heap_unit *y)
{
    return x->key < y->key || (x->key == y->key && x->seq < y->seq);
}

static heap *heap_of(ABT_pool pool)
{
    void *data;
    check(ABT_pool_get_data(pool, &data), "ABT_pool_get_data");
    return data;
}

static int heap_init(ABT_pool pool, ABT_pool_config config)
{
    (void)config;
    heap *h = calloc(1, sizeof(*h));
    if (!h)
        return ABT_ERR_MEM;
    pthread_mutex_init(&h->lock, NULL);
    return ABT_pool_set_data(pool, h);
}

static void heap_free(ABT_pool pool)
{
    heap *h = heap_of(pool);
    pthread_mutex_destroy(&h->lock);
    free(h->a);
    free(h);
}

/* A thread gets associated with the pool: make its unit, key included. */
static ABT_unit heap_create_unit(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    void *arg;
    if (ABT_thread_get_arg(thread, &arg) != ABT_SUCCESS || arg == NULL)
        return ABT_UNIT_NULL; /* not a keyed ULT: refuse it */
    heap_unit *u = malloc(sizeof(*u));
    if (!u)
        return ABT_UNIT_NULL;
    u->thread = thread;
    u->key = ((keyed *)arg)->key;
    return (ABT_unit)u;
}

static void heap_free_unit(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    free((heap_unit *)unit);
}

static ABT_bool heap_is_empty(ABT_pool pool)
{
    heap *h = heap_of(pool);
    pthread_mutex_lock(&h->lock);
    size_t n = h->n;
    pthread_mutex_unlock(&h->lock);
    return n == 0 ? ABT_TRUE : ABT_FALSE;
}

static size_t heap_get_size(ABT_pool pool)
{
    heap *h = heap_of(pool);
    pthread_mutex_lock(&h->lock);
    size_t n = h->n;
    pthread_mutex_unlock(&h->lock);
    return n;
}

static void heap_push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx)
{
    (void)ctx;
    heap *h = heap_of(pool);
    heap_unit *u = (heap_unit *)unit;
    pthread_mutex_lock(&h->lock);
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        heap_unit **a = realloc(h->a, cap * sizeof(*a));
        if (!a)
            abort(); /* a push cannot fail */
        h->a = a;
        h->cap = cap;
    }
    u->seq = h->next_seq++;
    size_t i = h->n++;
    while (i > 0 && before(u, h->a[(i - 1) / 2])) { /* sift up */
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = u;
    pthread_mutex_unlock(&h->lock);
}

/* A new-style pop hands back the thread; the unit stays allocated until the
 * runtime calls free_unit. */
static ABT_thread heap_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)ctx;
    heap *h = heap_of(pool);
    pthread_mutex_lock(&h->lock);
    if (h->n == 0) {
        pthread_mutex_unlock(&h->lock);
        return ABT_THREAD_NULL;
    }
    heap_unit *top = h->a[0], *last = h->a[--h->n];
    size_t i = 0;
    for (;;) { /* sift `last` down from the root */
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(h->a[c + 1], h->a[c]))
            c++;
        if (!before(h->a[c], last))
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    if (h->n > 0)
        h->a[i] = last;
    pthread_mutex_unlock(&h->lock);
    return top->thread;
}

/* ---- the scheduler ------------------------------------------------------ */

/* What a scheduler reports; passed in through its config (variable 0). */
typedef struct {
    unsigned long units_run[2]; /* from the heap, from the driver pool */
    int freed;                  /* set by the free callback */
} sched_stats;

static ABT_sched_config_var cv_stats = {.idx = 0, .type = ABT_SCHED_CONFIG_PTR};
#define EVENT_FREQ 32

static int sorted_sched_init(ABT_sched sched, ABT_sched_config config)
{
    sched_stats *stats = NULL;
    check(ABT_sched_config_read(config, 1, &stats), "ABT_sched_config_read");
    if (!stats)
        return ABT_ERR_INV_ARG;
    return ABT_sched_set_data(sched, stats);
}

/* Pool 0 (the heap) always first; pool 1 (the driver) only when the heap is
 * empty. Every EVENT_FREQ iterations: the ES's requests (join, ...). */
static void sorted_sched_run(ABT_sched sched)
{
    sched_stats *stats;
    ABT_pool pools[2];
    check(ABT_sched_get_data(sched, (void **)&stats), "ABT_sched_get_data");
    check(ABT_sched_get_pools(sched, 2, 0, pools), "ABT_sched_get_pools");
    for (unsigned long it = 1;; it++) {
        for (int p = 0; p < 2; p++) {
            ABT_thread thread;
            check(ABT_pool_pop_thread(pools[p], &thread), "ABT_pool_pop_thread");
            if (thread != ABT_THREAD_NULL) {
                check(ABT_self_schedule(thread, ABT_POOL_NULL), "ABT_self_schedule");
                stats->units_run[p]++;
                break;
            }
        }
        if (it % EVENT_FREQ == 0) {
            ABT_bool stop;
            check(ABT_xstream_check_events(sched), "ABT_xstream_check_events");
            check(ABT_sched_has_to_stop(sched, &stop), "ABT_sched_has_to_stop");
            if (stop)
                break;
        }
    }
}

static int sorted_sched_free(ABT_sched sched)
{
    sched_stats *stats;
    check(ABT_sched_get_data(sched, (void **)&stats), "ABT_sched_get_data");
    stats->freed = 1;
    return ABT_SUCCESS;
}

/* ---- the work ------------------------------------------------------------- */

typedef struct {
    keyed k; /* first member: what the heap orders by */
    int es;  /* the ES (index) that must run it */
    double result;
} lookup_arg;

typedef struct {
    int es, rank;
    unsigned seed;
    lookup_arg *args; /* num_batches * batch_size */
    long *log;        /* keys in the order the lookups ran */
    int logged;
    int wrong_es;
    long descents; /* how unsorted the creation order was */
} es_work;

static es_work work[NUM_ES];

static void lookup(void *p)
{
    lookup_arg *a = p;
    es_work *w = &work[a->es];
    int rank;
    check(ABT_self_get_xstream_rank(&rank), "ABT_self_get_xstream_rank");
    if (rank != w->rank)
        w->wrong_es++;
    /* Only this ES's scheduler pops this heap, so its lookups run one at a
     * time and the log needs no lock. */
    w->log[w->logged++] = a->k.key;
    double sum = 0;
    for (int i = 0; i < WINDOW; i++)
        sum += grid[a->k.key + i];
    a->result = sum;
}

typedef struct {
    es_work *w;
    ABT_pool heap_pool;
} driver_arg;

/* Creates a batch of lookups with random keys, joins them all, repeats. */
static void driver(void *p)
{
    driver_arg *d = p;
    es_work *w = d->w;
    ABT_thread *handles = malloc((size_t)batch_size * sizeof(*handles));
    if (!handles)
        abort();
    for (int b = 0; b < num_batches; b++) {
        lookup_arg *args = &w->args[b * batch_size];
        for (int i = 0; i < batch_size; i++) {
            args[i].k.key = (long)(rand_r(&w->seed) % (GRID_SIZE - WINDOW));
            args[i].es = w->es;
            if (i > 0 && args[i].k.key < args[i - 1].k.key)
                w->descents++;
            check(ABT_thread_create(d->heap_pool, lookup, &args[i], ABT_THREAD_ATTR_NULL,
                                    &handles[i]),
                  "create a lookup");
        }
        /* The first join blocks the driver; the scheduler then drains the
         * heap, in key order, before the driver's next turn. */
        for (int i = 0; i < batch_size; i++)
            check(ABT_thread_free(&handles[i]), "join a lookup");
    }
    free(handles);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        num_batches = atoi(argv[1]);
    if (argc > 2)
        batch_size = atoi(argv[2]);
    if (num_batches < 1 || batch_size < 1) {
        fprintf(stderr, "usage: %s [batches >= 1] [batch size >= 1]\n", argv[0]);
        return 2;
    }
    grid = malloc(GRID_SIZE * sizeof(*grid));
    if (!grid)
        return 1;
    for (int i = 0; i < GRID_SIZE; i++)
        grid[i] = (double)(i % 1000) * 0.5;

    check(ABT_init(argc, argv), "ABT_init");

    ABT_pool_user_def heap_def;
    check(ABT_pool_user_def_create(heap_create_unit, heap_free_unit, heap_is_empty, heap_pop,
                                   heap_push, &heap_def),
          "ABT_pool_user_def_create");
    check(ABT_pool_user_def_set_init(heap_def, heap_init), "set_init");
    check(ABT_pool_user_def_set_free(heap_def, heap_free), "set_free");
    check(ABT_pool_user_def_set_get_size(heap_def, heap_get_size), "set_get_size");

    ABT_sched_def sched_def = {.type = ABT_SCHED_TYPE_ULT, .init = sorted_sched_init,
                               .run = sorted_sched_run, .free = sorted_sched_free,
                               .get_migr_pool = NULL};

    ABT_pool heap_pools[NUM_ES], driver_pools[NUM_ES];
    ABT_sched scheds[NUM_ES];
    ABT_xstream xstreams[NUM_ES];
    sched_stats stats[NUM_ES] = {{{0, 0}, 0}};
    ABT_thread drivers[NUM_ES];
    driver_arg dargs[NUM_ES];
    int total = num_batches * batch_size;

    for (int e = 0; e < NUM_ES; e++) {
        work[e].es = e;
        work[e].seed = 12345u + 777u * (unsigned)e;
        work[e].args = calloc((size_t)total, sizeof(lookup_arg));
        work[e].log = calloc((size_t)total, sizeof(long));
        if (!work[e].args || !work[e].log)
            return 1;

        check(ABT_pool_create(heap_def, ABT_POOL_CONFIG_NULL, &heap_pools[e]),
              "create a sorted pool");
        /* The main ULT pushes the driver from the primary ES: MPSC. */
        check(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_FALSE,
                                    &driver_pools[e]),
              "create a driver pool");
        ABT_sched_config config;
        check(ABT_sched_config_create(&config, cv_stats, (void *)&stats[e],
                                      ABT_sched_config_var_end),
              "ABT_sched_config_create");
        ABT_pool pools[2] = {heap_pools[e], driver_pools[e]};
        check(ABT_sched_create(&sched_def, 2, pools, config, &scheds[e]), "ABT_sched_create");
        check(ABT_sched_config_free(&config), "ABT_sched_config_free");
        check(ABT_xstream_create(scheds[e], &xstreams[e]), "ABT_xstream_create");
        check(ABT_xstream_get_rank(xstreams[e], &work[e].rank), "ABT_xstream_get_rank");

        dargs[e] = (driver_arg){&work[e], heap_pools[e]};
        check(ABT_thread_create(driver_pools[e], driver, &dargs[e], ABT_THREAD_ATTR_NULL,
                                &drivers[e]),
              "create a driver");
    }
    for (int e = 0; e < NUM_ES; e++)
        check(ABT_thread_free(&drivers[e]), "join a driver");

    /* Our schedulers and pools are not automatic: freeing an ES leaves its
     * scheduler to us, and freeing the scheduler leaves its pools. */
    for (int e = 0; e < NUM_ES; e++) {
        check(ABT_xstream_free(&xstreams[e]), "ABT_xstream_free");
        check(ABT_sched_free(&scheds[e]), "ABT_sched_free");
        check(ABT_pool_free(&heap_pools[e]), "free a sorted pool");
        check(ABT_pool_free(&driver_pools[e]), "free a driver pool");
    }
    check(ABT_pool_user_def_free(&heap_def), "ABT_pool_user_def_free");
    check(ABT_finalize(), "ABT_finalize");

    /* ---- checks and summary ---- */
    int failed = 0;
    for (int e = 0; e < NUM_ES; e++) {
        es_work *w = &work[e];
        int unsorted_batches = 0;
        for (int b = 0; b < num_batches; b++)
            for (int i = b * batch_size + 1; i < (b + 1) * batch_size; i++)
                if (w->log[i] < w->log[i - 1]) {
                    unsorted_batches++;
                    break;
                }
        double sum = 0, expected = 0;
        for (int i = 0; i < total; i++) {
            sum += w->args[i].result;
            for (int j = 0; j < WINDOW; j++)
                expected += grid[w->args[i].k.key + j];
        }
        printf("ES rank %d: %d lookups in %d batches, created with %ld descents in key order, "
               "ran with %d unsorted batches; scheduler ran %lu from the heap, gave the "
               "driver %lu turns\n",
               w->rank, w->logged, num_batches, w->descents, unsorted_batches,
               stats[e].units_run[0], stats[e].units_run[1]);
        if (w->logged != total || stats[e].units_run[0] != (unsigned long)total) {
            fprintf(stderr, "check failed: not every lookup ran exactly once\n");
            failed = 1;
        }
        /* The driver runs once to create the first batch, then once after each
         * batch has drained: never in the middle of a batch. */
        if (stats[e].units_run[1] != (unsigned long)num_batches + 1) {
            fprintf(stderr, "check failed: the driver had %lu turns, expected %d\n",
                    stats[e].units_run[1], num_batches + 1);
            failed = 1;
        }
        if (unsorted_batches) {
            fprintf(stderr, "check failed: a batch did not run in key order\n");
            failed = 1;
        }
        if (w->descents == 0 && batch_size > 10) {
            fprintf(stderr, "check failed: the keys were created sorted, nothing shown\n");
            failed = 1;
        }
        if (w->wrong_es) {
            fprintf(stderr, "check failed: %d lookups ran on another ES\n", w->wrong_es);
            failed = 1;
        }
        if (sum != expected) {
            fprintf(stderr, "check failed: lookups sum to %g, expected %g\n", sum, expected);
            failed = 1;
        }
        if (!stats[e].freed) {
            fprintf(stderr, "check failed: ABT_sched_free did not call the free callback\n");
            failed = 1;
        }
        free(w->args);
        free(w->log);
    }
    free(grid);
    printf("%s\n", failed ? "FAILED" : "all checks passed");
    return failed;
}
