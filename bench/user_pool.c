/*
 * User-defined pools against the predefined FIFO pool.
 *
 *   user_pool [REPEATS]                      every workload on every pool
 *   user_pool fork_join POOL [N] [ROUNDS]    one workload on one pool
 *   user_pool yield POOL [K]
 *     POOL     predef | new | legacy (below)
 *     REPEATS  timed runs per workload and pool (default 15)
 *     N        ULTs per fork-join round (default 256)
 *     ROUNDS   timed fork-join rounds (default 1000)
 *     K        timed ABT_thread_yield calls per ULT (default 100000)
 *
 * Pools, each ABT_xstream_set_main_sched_basic'd (ABT_SCHED_BASIC, one pool)
 * onto the primary ES, so the main ULT works alone on ES 0 as in
 * fork_join.c:
 *   predef  ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV)
 *   new     a FIFO of our own through ABT_pool_user_def_create (create_unit,
 *           free_unit, is_empty, pop, push) + set_init, set_free,
 *           set_get_size
 *   legacy  the same FIFO through a struct ABT_pool_def with
 *           ABT_POOL_ACCESS_PRIV (u_create_from_thread, u_free,
 *           u_get_thread, u_is_in_pool, p_init, p_get_size, p_push, p_pop,
 *           p_remove, p_free)
 * The FIFO is a circular doubly-linked list with a sentinel, kept in the
 * pool's data (ABT_pool_set_data in the init callback). A unit is a small
 * node holding the ABT_thread; nodes come from a free list (in the pool's
 * data; for legacy in a file-level variable, as u_create_from_thread and
 * u_free are not given the pool) and are malloc'd only when it is empty, so
 * once warm no create or free allocates. Nothing is locked: one ES uses the
 * pool.
 *
 * Workloads (as fork_join.c and yield.c):
 *   fork_join  the main ULT creates N ULTs with empty bodies (default
 *              attributes) and frees them in creation order (free joins);
 *              one untimed round, then ROUNDS timed ones; ns per ULT.
 *   yield      the main ULT and one ULT yield back and forth; 10 untimed
 *              yields each, then the main ULT times its K yields, during
 *              which each ULT yields K times; ns per yield (time / 2K).
 *
 * Without a workload, every pool runs both workloads REPEATS times
 * (fork-join: N = 256, 512 rounds; yield: K = 131072), the pools taking turns
 * so that drift of the machine's speed hits all three alike. Prints a table
 * of medians and their ratio to predef, then one key=value line.
 * With a workload: one timed loop, one key=value line with ops (for
 * callgrind.sh) and ns_per_op.
 */
#define _GNU_SOURCE /* clock_gettime under -std=c11 */
#include "bench_util.h"

#define YIELD_WARMUP 10

enum { POOL_PREDEF, POOL_NEW, POOL_LEGACY, NUM_POOLS };
static const char *const pool_names[NUM_POOLS] = { "predef", "new", "legacy" };
static const char *const pool_labels[NUM_POOLS] = {
    "ABT_POOL_FIFO, PRIV (predefined)",
    "user FIFO, ABT_pool_user_def_create",
    "user FIFO, legacy ABT_pool_def, PRIV",
};

/* ---- The user FIFO ---------------------------------------------------- */

typedef struct unit_node {
    struct unit_node *prev, *next; /* next == NULL: not in the queue */
    ABT_thread thread;
} unit_node_t;

typedef struct {
    unit_node_t head;   /* sentinel: head.next is the oldest, head.prev the newest */
    size_t size;
    unit_node_t *spare; /* free nodes, linked through next */
} fifo_t;

static int fifo_create(ABT_pool pool)
{
    fifo_t *q = malloc(sizeof(*q));
    if (!q)
        return ABT_ERR_MEM;
    q->head.prev = q->head.next = &q->head;
    q->size = 0;
    q->spare = NULL;
    return ABT_pool_set_data(pool, q);
}

static fifo_t *fifo_of(ABT_pool pool)
{
    void *data;
    CHECK(ABT_pool_get_data(pool, &data));
    return data;
}

static void fifo_push(fifo_t *q, unit_node_t *n)
{
    n->prev = q->head.prev;
    n->next = &q->head;
    q->head.prev->next = n;
    q->head.prev = n;
    q->size++;
}

static void fifo_unlink(fifo_t *q, unit_node_t *n)
{
    n->prev->next = n->next;
    n->next->prev = n->prev;
    n->prev = n->next = NULL;
    q->size--;
}

static unit_node_t *fifo_pop(fifo_t *q)
{
    unit_node_t *n = q->head.next;
    if (n == &q->head)
        return NULL;
    fifo_unlink(q, n);
    return n;
}

static unit_node_t *node_get(unit_node_t **spare, ABT_thread thread)
{
    unit_node_t *n = *spare;
    if (n) {
        *spare = n->next;
    } else if (!(n = malloc(sizeof(*n)))) {
        fprintf(stderr, "user_pool: out of memory for a unit\n");
        exit(1); /* a unit handle may not be ABT_UNIT_NULL */
    }
    n->prev = n->next = NULL;
    n->thread = thread;
    return n;
}

static void node_put(unit_node_t **spare, unit_node_t *n)
{
    n->next = *spare;
    *spare = n;
}

static void spare_free_all(unit_node_t **spare)
{
    while (*spare) {
        unit_node_t *n = *spare;
        *spare = n->next;
        free(n);
    }
}

/* ---- (a) new-style definition: ABT_pool_user_def_create ---------------- */

static ABT_unit new_create_unit(ABT_pool pool, ABT_thread thread)
{
    return (ABT_unit)node_get(&fifo_of(pool)->spare, thread);
}

static void new_free_unit(ABT_pool pool, ABT_unit unit)
{
    node_put(&fifo_of(pool)->spare, (unit_node_t *)unit);
}

static ABT_bool new_is_empty(ABT_pool pool)
{
    return fifo_of(pool)->size == 0 ? ABT_TRUE : ABT_FALSE;
}

static ABT_thread new_pop(ABT_pool pool, ABT_pool_context context)
{
    (void)context;
    unit_node_t *n = fifo_pop(fifo_of(pool));
    return n ? n->thread : ABT_THREAD_NULL;
}

static void new_push(ABT_pool pool, ABT_unit unit, ABT_pool_context context)
{
    (void)context;
    fifo_push(fifo_of(pool), (unit_node_t *)unit);
}

static int new_init(ABT_pool pool, ABT_pool_config config)
{
    (void)config;
    return fifo_create(pool);
}

static void new_free(ABT_pool pool)
{
    fifo_t *q = fifo_of(pool);
    spare_free_all(&q->spare);
    free(q);
}

static size_t new_get_size(ABT_pool pool)
{
    return fifo_of(pool)->size;
}

/* ---- (b) legacy definition: struct ABT_pool_def ------------------------ */

/* u_create_from_thread and u_free are not given the pool: their free list
 * lives here (this program creates one legacy pool at most). */
static unit_node_t *legacy_spare;

static ABT_unit legacy_create_from_thread(ABT_thread thread)
{
    return (ABT_unit)node_get(&legacy_spare, thread);
}

static void legacy_free_unit(ABT_unit *unit)
{
    node_put(&legacy_spare, (unit_node_t *)*unit);
    *unit = ABT_UNIT_NULL;
}

static ABT_thread legacy_get_thread(ABT_unit unit)
{
    return ((unit_node_t *)unit)->thread;
}

static ABT_bool legacy_is_in_pool(ABT_unit unit)
{
    return ((unit_node_t *)unit)->next ? ABT_TRUE : ABT_FALSE;
}

static int legacy_init(ABT_pool pool, ABT_pool_config config)
{
    (void)config;
    return fifo_create(pool);
}

static size_t legacy_get_size(ABT_pool pool)
{
    return fifo_of(pool)->size;
}

static void legacy_push(ABT_pool pool, ABT_unit unit)
{
    fifo_push(fifo_of(pool), (unit_node_t *)unit);
}

static ABT_unit legacy_pop(ABT_pool pool)
{
    unit_node_t *n = fifo_pop(fifo_of(pool));
    return n ? (ABT_unit)n : ABT_UNIT_NULL;
}

static int legacy_remove(ABT_pool pool, ABT_unit unit)
{
    unit_node_t *n = (unit_node_t *)unit;
    if (!n->next)
        return ABT_ERR_POOL; /* not in the queue */
    fifo_unlink(fifo_of(pool), n);
    return ABT_SUCCESS;
}

static int legacy_free_pool(ABT_pool pool)
{
    free(fifo_of(pool));
    spare_free_all(&legacy_spare);
    return ABT_SUCCESS;
}

/* Static, so that padding and the unused members are zero. */
static ABT_pool_def legacy_def = {
    .access = ABT_POOL_ACCESS_PRIV,
    .u_get_thread = legacy_get_thread,
    .u_is_in_pool = legacy_is_in_pool,
    .u_create_from_thread = legacy_create_from_thread,
    .u_free = legacy_free_unit,
    .p_init = legacy_init,
    .p_get_size = legacy_get_size,
    .p_push = legacy_push,
    .p_pop = legacy_pop,
    .p_remove = legacy_remove,
    .p_free = legacy_free_pool,
};

/* ---- Pools and workloads ----------------------------------------------- */

/* Not automatic, so that a pool outlives the schedulers it is given to. */
static ABT_pool create_pool(int kind)
{
    ABT_pool pool = ABT_POOL_NULL;
    if (kind == POOL_PREDEF) {
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &pool));
    } else if (kind == POOL_NEW) {
        ABT_pool_user_def def;
        CHECK(ABT_pool_user_def_create(new_create_unit, new_free_unit, new_is_empty, new_pop,
                                       new_push, &def));
        CHECK(ABT_pool_user_def_set_init(def, new_init));
        CHECK(ABT_pool_user_def_set_free(def, new_free));
        CHECK(ABT_pool_user_def_set_get_size(def, new_get_size));
        CHECK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
        CHECK(ABT_pool_user_def_free(&def)); /* ABT_pool_create copied it */
    } else {
        CHECK(ABT_pool_create(&legacy_def, ABT_POOL_CONFIG_NULL, &pool));
    }
    return pool;
}

/* A new main scheduler for the primary ES over `pool` alone; the main ULT
 * moves to `pool`, and the previous scheduler is freed (it was automatic). */
static void use_pool(ABT_pool pool)
{
    ABT_xstream self;
    CHECK(ABT_xstream_self(&self));
    CHECK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &pool));
}

static ABT_thread *threads;

static void fork_join_round(ABT_pool pool, long n)
{
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_create(pool, empty_body, NULL, ABT_THREAD_ATTR_NULL, &threads[i]));
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_free(&threads[i]));
}

/* ns per ULT over `rounds` rounds of n, after one untimed round */
static double run_fork_join(ABT_pool pool, long n, long rounds)
{
    fork_join_round(pool, n);
    double t0 = now_ns();
    for (long r = 0; r < rounds; r++)
        fork_join_round(pool, n);
    return (now_ns() - t0) / (double)(n * rounds);
}

static void yield_body(void *arg)
{
    long k = *(const long *)arg;
    for (long i = 0; i < YIELD_WARMUP + k; i++)
        ABT_thread_yield();
}

/* ns per yield: the main ULT and one ULT, k timed yields each */
static double run_yield(ABT_pool pool, long k)
{
    ABT_thread th;
    CHECK(ABT_thread_create(pool, yield_body, &k, ABT_THREAD_ATTR_NULL, &th));
    for (long i = 0; i < YIELD_WARMUP; i++)
        ABT_thread_yield();
    double t0 = now_ns();
    for (long i = 0; i < k; i++)
        ABT_thread_yield();
    double t1 = now_ns();
    CHECK(ABT_thread_free(&th));
    return (t1 - t0) / (2.0 * (double)k);
}

/* Hand the primary ES to a fresh predefined pool, then free ours. */
static void free_pools(ABT_pool *pools, int num)
{
    use_private_pool();
    for (int p = 0; p < num; p++)
        if (pools[p] != ABT_POOL_NULL)
            CHECK(ABT_pool_free(&pools[p]));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- Modes -------------------------------------------------------------- */

#define ALL_N 256
#define ALL_ROUNDS 512
#define ALL_K 131072

static int run_all(long repeats)
{
    ABT_pool pools[NUM_POOLS];
    double *fj[NUM_POOLS], *yi[NUM_POOLS];
    for (int p = 0; p < NUM_POOLS; p++) {
        pools[p] = create_pool(p);
        fj[p] = malloc((size_t)repeats * sizeof(double));
        yi[p] = malloc((size_t)repeats * sizeof(double));
    }
    threads = malloc(ALL_N * sizeof(*threads));
    for (long r = 0; r < repeats; r++) {
        for (int p = 0; p < NUM_POOLS; p++) {
            use_pool(pools[p]);
            fj[p][r] = run_fork_join(pools[p], ALL_N, ALL_ROUNDS);
            yi[p][r] = run_yield(pools[p], ALL_K);
        }
    }
    free_pools(pools, NUM_POOLS);
    free(threads);
    CHECK(ABT_finalize());

    double fj_med[NUM_POOLS], yi_med[NUM_POOLS];
    for (int p = 0; p < NUM_POOLS; p++) {
        fj_med[p] = median(fj[p], repeats);
        yi_med[p] = median(yi[p], repeats);
        free(fj[p]);
        free(yi[p]);
    }
    printf("| workload | pool | median ns/op (%ld runs) | vs predefined |\n", repeats);
    printf("|---|---|---|---|\n");
    for (int p = 0; p < NUM_POOLS; p++)
        printf("| fork-join, N=%d, per ULT | %s | %.1f | %.2f |\n", ALL_N, pool_labels[p],
               fj_med[p], fj_med[p] / fj_med[POOL_PREDEF]);
    for (int p = 0; p < NUM_POOLS; p++)
        printf("| yield, 2 ULTs, per yield | %s | %.1f | %.2f |\n", pool_labels[p], yi_med[p],
               yi_med[p] / yi_med[POOL_PREDEF]);
    long ops = repeats * NUM_POOLS * ((long)ALL_N * ALL_ROUNDS + 2L * ALL_K);
    printf("user_pool repeats=%ld n=%d rounds=%d k=%d ops=%ld", repeats, ALL_N, ALL_ROUNDS, ALL_K,
           ops);
    for (int p = 0; p < NUM_POOLS; p++)
        printf(" fj_%s=%.2f", pool_names[p], fj_med[p]);
    for (int p = 0; p < NUM_POOLS; p++)
        printf(" yield_%s=%.2f", pool_names[p], yi_med[p]);
    printf(" fj_new_ratio=%.3f fj_legacy_ratio=%.3f yield_new_ratio=%.3f yield_legacy_ratio=%.3f\n",
           fj_med[POOL_NEW] / fj_med[POOL_PREDEF], fj_med[POOL_LEGACY] / fj_med[POOL_PREDEF],
           yi_med[POOL_NEW] / yi_med[POOL_PREDEF], yi_med[POOL_LEGACY] / yi_med[POOL_PREDEF]);
    return 0;
}

static int run_one(int is_fork_join, int kind, long a, long b)
{
    ABT_pool pool = create_pool(kind);
    use_pool(pool);
    double ns;
    long ops;
    if (is_fork_join) {
        threads = malloc((size_t)a * sizeof(*threads));
        ns = run_fork_join(pool, a, b);
        ops = a * b;
        free(threads);
    } else {
        ns = run_yield(pool, a);
        ops = 2 * a;
    }
    free_pools(&pool, 1);
    CHECK(ABT_finalize());
    if (is_fork_join)
        printf("user_pool workload=fork_join pool=%s n=%ld rounds=%ld ops=%ld ns_per_op=%.2f\n",
               pool_names[kind], a, b, ops, ns);
    else
        printf("user_pool workload=yield pool=%s k=%ld ops=%ld ns_per_op=%.2f\n",
               pool_names[kind], a, ops, ns);
    return 0;
}

static int usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [REPEATS]\n"
            "       %s fork_join predef|new|legacy [N] [ROUNDS]\n"
            "       %s yield predef|new|legacy [K]\n",
            prog, prog, prog);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (argv[1][0] >= '0' && argv[1][0] <= '9')) {
        long repeats = arg_long(argc, argv, 1, 15);
        if (argc > 2)
            return usage(argv[0]);
        CHECK(ABT_init(0, NULL));
        return run_all(repeats);
    }
    int is_fork_join = strcmp(argv[1], "fork_join") == 0;
    if ((!is_fork_join && strcmp(argv[1], "yield") != 0) || argc < 3)
        return usage(argv[0]);
    int kind = -1;
    for (int p = 0; p < NUM_POOLS; p++)
        if (strcmp(argv[2], pool_names[p]) == 0)
            kind = p;
    if (kind < 0 || argc > (is_fork_join ? 5 : 4))
        return usage(argv[0]);
    long a = arg_long(argc, argv, 3, is_fork_join ? 256 : 100000);
    long b = is_fork_join ? arg_long(argc, argv, 4, 1000) : 0;
    CHECK(ABT_init(0, NULL));
    return run_one(is_fork_join, kind, a, b);
}
