/*
 * KMeans-shaped loop (issue #7; Iwasaki et al. Sec. 4.2 and Fig. 25): fine
 * grained ULTs that update replicated partial sums under mutexes, so that
 * the number of replicas R sets how often a ULT finds its mutex held.
 *
 *   kmeans R ITERS POINTS [E]
 *     R       partial sums (replicas) per cluster, each with its own mutex
 *             (default 1)
 *     ITERS   timed iterations (default 10)
 *     POINTS  data points, one ULT each per iteration (default 8192)
 *     E       execution streams, one worker each (default 2; at most 16)
 *
 * POINTS points of DIM = 8 integer features (a fixed pseudo-random set: K
 * blobs around random centres) are put into K = 4 clusters. Each ES has its
 * own FIFO pool with ABT_POOL_ACCESS_MPMC (a ULT woken from a mutex is pushed
 * by the ES that unlocks it) and ABT_SCHED_BASIC: the primary ES gets it with
 * ABT_xstream_set_main_sched_basic, the others with ABT_xstream_create_basic.
 *
 * An iteration, as the paper's nested parallel loop with close affinity:
 * the main ULT creates one worker ULT into each secondary ES's pool and is
 * itself the worker of ES 0. The workers wait for each other at a start gate
 * (each counts itself, then calls ABT_thread_yield until all E have come):
 * a secondary ES that found nothing to run for a while gives its CPU away
 * (sched_yield in bobbin's BASIC scheduler), and without the gate it often
 * starts its share only after ES 0 has done its own, so that the ESs never
 * compete for a mutex. Then worker w creates one ULT per point of its share
 * (POINTS / E consecutive points) into its own ES's pool, then frees them
 * all in creation order; the main ULT then frees the workers and, alone,
 * adds up the R replicas of every cluster and moves each centre to the
 * centroid of its points (integer division; a cluster without points keeps
 * its centre). A point's ULT finds the nearest centre k (squared distance;
 * the centres do not change during an iteration), then locks the mutex of
 * partial sum (k, i mod R), adds its features and 1 to the count, unlocks.
 * With R = 1 the ULTs of all ESs compete for K mutexes; with larger R they
 * spread over K * R.
 *
 * A ULT whose mutex is held blocks in ABT_mutex_lock (after spinning for a
 * while, in bobbin): that is its deviation. To see how often it happens, a
 * ULT first calls ABT_mutex_trylock and only when that fails
 * ABT_mutex_lock; reported are the share of the point ULTs whose trylock
 * failed (contended_pct) and the share during whose ABT_mutex_lock another
 * point ULT started on the same ES (switched_pct: the ULT certainly left its
 * ES; a lower bound for the deviations, since a ULT that blocks when no
 * other point ULT of its ES is ready is not counted).
 *
 * One untimed iteration first, then the centres are reset and ITERS timed
 * iterations run. Checked (exit 1 if wrong): every iteration, that the
 * partial sums hold every point once (counts and feature sums over all
 * clusters); at the end, that the centres equal those of the same ITERS
 * iterations computed sequentially before ABT_init (integer sums, so the
 * order of the additions does not matter). Reported: ns per point ULT
 * (time / (ITERS * POINTS), the workers' creation and the reduction
 * included), and the sum of the final centres' features (checksum).
 */
#include <stdatomic.h>
#include <stdint.h>

#include "bench_util.h"

#define K 4
#define DIM 8
#define MAX_ES 16

typedef struct {
    int32_t x[DIM];
} point;

/* One partial sum and its mutex, alone on its cache lines. */
typedef struct {
    ABT_mutex mutex;
    int64_t count;
    int64_t sum[DIM];
} __attribute__((aligned(64))) partial;

/* Per ES, alone on its cache line: written by the ULTs of that ES only. */
typedef struct {
    atomic_long started;   /* point ULTs started on this ES */
    atomic_long contended; /* trylock failed */
    atomic_long switched;  /* another ULT started during the ABT_mutex_lock */
} __attribute__((aligned(64))) es_stats;

static long n_points, n_replicas, n_es, share;
static point *points;
static point centres[K];
static partial *partials; /* [K * R], partial (k, r) at k * R + r */
static es_stats stats[MAX_ES];
static ABT_pool pools[MAX_ES];
static ABT_thread *point_ults;

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rng(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static int nearest(const point *p, const point *c)
{
    int best = 0;
    int64_t best_d = INT64_MAX;
    for (int k = 0; k < K; k++) {
        int64_t d = 0;
        for (int j = 0; j < DIM; j++) {
            int64_t v = (int64_t)p->x[j] - c[k].x[j];
            d += v * v;
        }
        if (d < best_d)
            best_d = d, best = k;
    }
    return best;
}

/* New centres from sums and counts [K]; an empty cluster keeps its centre. */
static void move_centres(point *c, int64_t sum[K][DIM], const int64_t count[K])
{
    for (int k = 0; k < K; k++)
        if (count[k] > 0)
            for (int j = 0; j < DIM; j++)
                c[k].x[j] = (int32_t)(sum[k][j] / count[k]);
}

static void point_ult(void *arg)
{
    long i = (long)arg;
    es_stats *st = &stats[i / share];
    long started = atomic_load_explicit(&st->started, memory_order_relaxed) + 1;
    atomic_store_explicit(&st->started, started, memory_order_relaxed);

    const point *p = &points[i];
    partial *s = &partials[nearest(p, centres) * n_replicas + i % n_replicas];
    if (ABT_mutex_trylock(s->mutex) != ABT_SUCCESS) {
        atomic_fetch_add_explicit(&st->contended, 1, memory_order_relaxed);
        CHECK(ABT_mutex_lock(s->mutex));
        if (atomic_load_explicit(&st->started, memory_order_relaxed) != started)
            atomic_fetch_add_explicit(&st->switched, 1, memory_order_relaxed);
    }
    s->count++;
    for (int j = 0; j < DIM; j++)
        s->sum[j] += p->x[j];
    CHECK(ABT_mutex_unlock(s->mutex));
}

/* The start gate: workers that have arrived, over all iterations. */
static atomic_long arrived;
static long gate; /* n_es * iterations so far, set by the main ULT */

static void worker(void *arg)
{
    long w = (long)arg;
    long lo = w * share, hi = lo + share < n_points ? lo + share : n_points;
    atomic_fetch_add(&arrived, 1);
    while (atomic_load(&arrived) < gate)
        CHECK(ABT_thread_yield());
    for (long i = lo; i < hi; i++)
        CHECK(ABT_thread_create(pools[w], point_ult, (void *)i, ABT_THREAD_ATTR_NULL,
                                &point_ults[i]));
    for (long i = lo; i < hi; i++)
        CHECK(ABT_thread_free(&point_ults[i]));
}

static void iteration(const int64_t total[DIM])
{
    ABT_thread workers[MAX_ES];
    for (long s = 0; s < K * n_replicas; s++) {
        partials[s].count = 0;
        memset(partials[s].sum, 0, sizeof(partials[s].sum));
    }
    gate += n_es;
    for (long w = 1; w < n_es; w++)
        CHECK(ABT_thread_create(pools[w], worker, (void *)w, ABT_THREAD_ATTR_NULL, &workers[w]));
    worker((void *)0);
    for (long w = 1; w < n_es; w++)
        CHECK(ABT_thread_free(&workers[w]));

    int64_t sum[K][DIM] = {{0}}, count[K] = {0}, all_count = 0;
    for (int k = 0; k < K; k++)
        for (long r = 0; r < n_replicas; r++) {
            partial *s = &partials[k * n_replicas + r];
            count[k] += s->count;
            for (int j = 0; j < DIM; j++)
                sum[k][j] += s->sum[j];
        }
    for (int k = 0; k < K; k++)
        all_count += count[k];
    int ok = all_count == n_points;
    for (int j = 0; j < DIM; j++) {
        int64_t t = 0;
        for (int k = 0; k < K; k++)
            t += sum[k][j];
        ok &= t == total[j];
    }
    if (!ok) {
        fprintf(stderr, "kmeans: the partial sums lost or doubled points (%lld of %ld counted)\n",
                (long long)all_count, n_points);
        exit(1);
    }
    move_centres(centres, sum, count);
}

int main(int argc, char **argv)
{
    n_replicas = arg_long(argc, argv, 1, 1);
    long iters = arg_long(argc, argv, 2, 10);
    n_points = arg_long(argc, argv, 3, 8192);
    n_es = arg_long(argc, argv, 4, 2);
    if (n_es > MAX_ES || n_points < K) {
        fprintf(stderr, "usage: %s [R] [ITERS] [POINTS(>=%d)] [E(1..%d)]\n", argv[0], K, MAX_ES);
        return 2;
    }
    share = (n_points + n_es - 1) / n_es;

    /* The data: K blobs of radius 3000 around random centres in [0, 10000)^DIM. */
    point blob[K];
    for (int k = 0; k < K; k++)
        for (int j = 0; j < DIM; j++)
            blob[k].x[j] = (int32_t)(rng() % 10000);
    points = malloc((size_t)n_points * sizeof(*points));
    point_ults = malloc((size_t)n_points * sizeof(*point_ults));
    partials = aligned_alloc(64, (size_t)(K * n_replicas) * sizeof(*partials));
    if (!points || !point_ults || !partials) {
        fprintf(stderr, "kmeans: out of memory\n");
        return 1;
    }
    int64_t total[DIM] = {0};
    for (long i = 0; i < n_points; i++)
        for (int j = 0; j < DIM; j++) {
            points[i].x[j] = blob[rng() % K].x[j] + (int32_t)(rng() % 6001) - 3000;
            total[j] += points[i].x[j];
        }
    point initial[K];
    for (int k = 0; k < K; k++)
        initial[k] = points[k];

    /* The reference: the same iterations, sequentially. */
    point expect[K];
    memcpy(expect, initial, sizeof(expect));
    for (long it = 0; it < iters; it++) {
        int64_t sum[K][DIM] = {{0}}, count[K] = {0};
        for (long i = 0; i < n_points; i++) {
            int k = nearest(&points[i], expect);
            count[k]++;
            for (int j = 0; j < DIM; j++)
                sum[k][j] += points[i].x[j];
        }
        move_centres(expect, sum, count);
    }

    CHECK(ABT_init(0, NULL));
    ABT_xstream self, es[MAX_ES];
    for (long e = 0; e < n_es; e++)
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[e]));
    CHECK(ABT_xstream_self(&self));
    CHECK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &pools[0]));
    for (long e = 1; e < n_es; e++)
        CHECK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pools[e], ABT_SCHED_CONFIG_NULL,
                                       &es[e]));
    for (long s = 0; s < K * n_replicas; s++)
        CHECK(ABT_mutex_create(&partials[s].mutex));

    memcpy(centres, initial, sizeof(centres));
    iteration(total); /* warm-up */
    memcpy(centres, initial, sizeof(centres));
    for (long e = 0; e < n_es; e++) {
        atomic_store(&stats[e].contended, 0);
        atomic_store(&stats[e].switched, 0);
    }

    double t0 = now_ns();
    for (long it = 0; it < iters; it++)
        iteration(total);
    double t1 = now_ns();

    long contended = 0, switched = 0;
    for (long e = 0; e < n_es; e++) {
        contended += atomic_load(&stats[e].contended);
        switched += atomic_load(&stats[e].switched);
    }
    for (long e = 1; e < n_es; e++) {
        CHECK(ABT_xstream_join(es[e]));
        CHECK(ABT_xstream_free(&es[e]));
    }
    for (long s = 0; s < K * n_replicas; s++)
        CHECK(ABT_mutex_free(&partials[s].mutex));
    CHECK(ABT_finalize());

    if (memcmp(centres, expect, sizeof(centres)) != 0) {
        fprintf(stderr, "kmeans: the centres differ from the sequential computation\n");
        return 1;
    }
    long long checksum = 0;
    for (int k = 0; k < K; k++)
        for (int j = 0; j < DIM; j++)
            checksum += centres[k].x[j];
    long ops = iters * n_points;
    printf("kmeans r=%ld es=%ld k=%d dim=%d points=%ld iters=%ld ops=%ld contended_pct=%.2f "
           "switched_pct=%.2f checksum=%lld ns_per_ult=%.2f\n",
           n_replicas, n_es, K, DIM, n_points, iters, ops, 100.0 * (double)contended / (double)ops,
           100.0 * (double)switched / (double)ops, checksum,
           (t1 - t0) / (double)ops);
    free(points);
    free(point_ults);
    free(partials);
    return 0;
}
