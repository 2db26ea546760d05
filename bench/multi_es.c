/*
 * Multi-ES fork-join (PEERS.md "multi-ES"; issue #6 figure 3).
 *
 *   multi_es E REPS N [KIND [POOLS]]
 *     E      execution streams (default 2), the primary ES included
 *     REPS   timed rounds per worker (default 1000)
 *     N      units per round (default 256)
 *     KIND   ult (default) | task: ABT_thread_create + ABT_thread_free, or
 *            ABT_task_create + ABT_task_free
 *     POOLS  priv (default) | shared
 *
 * priv: every ES has its own FIFO pool with ABT_POOL_ACCESS_PRIV and the
 * basic scheduler; the primary ES gets one with
 * ABT_xstream_set_main_sched_basic. One worker ULT per ES (the main ULT on
 * the primary ES; on the others a ULT created into the pool before its ES is
 * created) repeatedly creates N units with empty bodies into its own pool
 * and frees them. After one warm-up round the workers meet at a barrier (C11
 * atomics, sched_yield while waiting, so that under valgrind, which runs one
 * thread at a time, a waiting ES hands over at once instead of spinning) and
 * each times its own REPS rounds; they meet again before returning, so that
 * no ES idles in its scheduler while another still works, and the secondary
 * ESs then stop by themselves (ABT_sched_finish).
 *
 * shared: one FIFO pool with ABT_POOL_ACCESS_MPMC, and every ES's basic
 * scheduler takes its work from it. The primary ES's scheduler has a second
 * pool in front of it, an MPSC FIFO that holds only the main ULT, so that
 * the main ULT (worker 0, which must end on the primary ES to call
 * ABT_finalize) never migrates; every other unit, the workers 1..E-1
 * included, is created into the shared pool and runs on whichever ES pops
 * it. Each worker creates its N units into the shared pool and frees them.
 * The barriers also call ABT_thread_yield while waiting (a worker that the
 * primary ES happened to pick up must let the main ULT run). At the end the
 * main ULT frees the workers and ABT_xstream_free stops each secondary ES.
 *
 * Reported: ns per unit for each worker (one per ES), min, mean and max
 * across workers; ns_per_op is the max (the slowest ES).
 */
#include <sched.h>
#include <stdatomic.h>

#include "bench_util.h"

typedef struct {
    ABT_pool pool;
    double ns_per_op;
} worker_t;

static worker_t *workers;
static long reps, n_units;
static int num_es, is_ult, is_shared;
static atomic_int started, finished;

static void barrier(atomic_int *count)
{
    atomic_fetch_add(count, 1);
    while (atomic_load(count) < num_es) {
        if (is_shared)
            CHECK(ABT_thread_yield());
        sched_yield();
    }
}

static void round_ult(ABT_pool pool, ABT_thread *units)
{
    for (long i = 0; i < n_units; i++)
        CHECK(ABT_thread_create(pool, empty_body, NULL, ABT_THREAD_ATTR_NULL, &units[i]));
    for (long i = 0; i < n_units; i++)
        CHECK(ABT_thread_free(&units[i]));
}

static void round_task(ABT_pool pool, ABT_task *units)
{
    for (long i = 0; i < n_units; i++)
        CHECK(ABT_task_create(pool, empty_body, NULL, &units[i]));
    for (long i = 0; i < n_units; i++)
        CHECK(ABT_task_free(&units[i]));
}

static void worker(void *arg)
{
    worker_t *w = arg;
    ABT_thread *units = malloc((size_t)n_units * sizeof(*units));
    void (*round)(ABT_pool, ABT_thread *) = is_ult ? round_ult : round_task;
    double t0 = 0;
    for (long r = -1; r < reps; r++) { /* round -1 is the warm-up */
        if (r == 0) {
            barrier(&started);
            t0 = now_ns();
        }
        round(w->pool, units);
    }
    w->ns_per_op = (now_ns() - t0) / (double)(reps * n_units);
    free(units);
    barrier(&finished);
    if (w != &workers[0] && !is_shared) {
        /* Let this ES stop by itself once this ULT is done. */
        ABT_xstream self;
        ABT_sched sched;
        CHECK(ABT_xstream_self(&self));
        CHECK(ABT_xstream_get_main_sched(self, &sched));
        CHECK(ABT_sched_finish(sched));
    }
}

int main(int argc, char **argv)
{
    num_es = (int)arg_long(argc, argv, 1, 2);
    reps = arg_long(argc, argv, 2, 1000);
    n_units = arg_long(argc, argv, 3, 256);
    const char *kind = argc > 4 ? argv[4] : "ult";
    const char *pools = argc > 5 ? argv[5] : "priv";
    is_ult = strcmp(kind, "ult") == 0;
    is_shared = strcmp(pools, "shared") == 0;
    if ((!is_ult && strcmp(kind, "task") != 0) || (!is_shared && strcmp(pools, "priv") != 0)) {
        fprintf(stderr, "usage: %s [E] [REPS] [N] [ult|task] [priv|shared]\n", argv[0]);
        return 2;
    }

    CHECK(ABT_init(0, NULL));
    worker_t *w = workers = calloc((size_t)num_es, sizeof(*w));
    ABT_xstream *es = calloc((size_t)num_es, sizeof(*es));
    ABT_thread *ws = calloc((size_t)num_es, sizeof(*ws));

    if (is_shared) {
        ABT_xstream self;
        ABT_pool shared, main_pools[2];
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &shared));
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPSC, ABT_TRUE, &main_pools[0]));
        main_pools[1] = shared;
        CHECK(ABT_xstream_self(&self));
        CHECK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 2, main_pools));
        for (int e = 0; e < num_es; e++)
            w[e].pool = shared;
        for (int e = 1; e < num_es; e++)
            CHECK(ABT_thread_create(shared, worker, &w[e], ABT_THREAD_ATTR_NULL, &ws[e]));
        for (int e = 1; e < num_es; e++)
            CHECK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &shared, ABT_SCHED_CONFIG_NULL,
                                           &es[e]));
    } else {
        w[0].pool = use_private_pool();
        for (int e = 1; e < num_es; e++) {
            CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE,
                                        &w[e].pool));
            CHECK(ABT_thread_create(w[e].pool, worker, &w[e], ABT_THREAD_ATTR_NULL, &ws[e]));
            CHECK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &w[e].pool,
                                           ABT_SCHED_CONFIG_NULL, &es[e]));
        }
    }
    worker(&w[0]);
    for (int e = 1; e < num_es; e++) {
        if (is_shared) {
            /* The worker may still be on its way out; the ES stops once the
             * shared pool is empty and it is asked to. */
            CHECK(ABT_thread_free(&ws[e]));
            CHECK(ABT_xstream_free(&es[e]));
            continue;
        }
        /* Wait with sched_yield until the ES has stopped by itself, rather
         * than in ABT_xstream_free, whose caller may poll the ES: under
         * valgrind, which runs one thread at a time, such a poll takes whole
         * time slices and makes instruction counts vary from run to run. */
        ABT_xstream_state state;
        do {
            sched_yield();
            CHECK(ABT_xstream_get_state(es[e], &state));
        } while (state != ABT_XSTREAM_STATE_TERMINATED);
        CHECK(ABT_thread_free(&ws[e]));
        CHECK(ABT_xstream_free(&es[e]));
    }

    double lo = w[0].ns_per_op, hi = w[0].ns_per_op, sum = 0;
    for (int e = 0; e < num_es; e++) {
        lo = w[e].ns_per_op < lo ? w[e].ns_per_op : lo;
        hi = w[e].ns_per_op > hi ? w[e].ns_per_op : hi;
        sum += w[e].ns_per_op;
    }
    CHECK(ABT_finalize());
    /* ops: units per worker; ops_all: units of all workers (what
     * callgrind.sh divides by) */
    printf("multi_es e=%d n=%ld reps=%ld kind=%s pools=%s ops=%ld ops_all=%ld ns_min=%.2f "
           "ns_mean=%.2f ns_max=%.2f ns_per_op=%.2f\n",
           num_es, n_units, reps, kind, pools, reps * n_units, num_es * reps * n_units, lo,
           sum / num_es, hi, hi);
    free(w);
    free(es);
    free(ws);
    return 0;
}
