/*
 * Multi-ES fork-join (PEERS.md "multi-ES").
 *
 *   multi_es E REPS N
 *     E     execution streams (default 2), the primary ES included
 *     REPS  timed rounds per ES (default 1000)
 *     N     ULTs per round (default 256)
 *
 * Every ES has its own FIFO pool with ABT_POOL_ACCESS_PRIV and the basic
 * scheduler; the primary ES gets one with ABT_xstream_set_main_sched_basic.
 * One worker ULT per ES (the main ULT on the primary ES; on the others a ULT
 * created into the pool before its ES is created) repeatedly creates N ULTs
 * with empty bodies into its own pool and frees them. After one warm-up
 * round the workers meet at a barrier (C11 atomics, sched_yield while
 * waiting, so that under valgrind, which runs one thread at a time, a waiting
 * ES hands over at once instead of spinning) and each times its own REPS
 * rounds; they meet again before returning, so that no ES idles in its
 * scheduler while another still works, and the secondary ESs then stop by
 * themselves (ABT_sched_finish). Reported: ns per ULT on each ES, min and max
 * across ESs.
 */
#include <sched.h>
#include <stdatomic.h>

#include "bench_util.h"

typedef struct {
    ABT_pool pool;
    double ns_per_op;
} worker_t;

static worker_t *workers;
static long reps, n_ults;
static int num_es;
static atomic_int started, finished;

static void barrier(atomic_int *count)
{
    atomic_fetch_add(count, 1);
    while (atomic_load(count) < num_es)
        sched_yield();
}

static void worker(void *arg)
{
    worker_t *w = arg;
    ABT_thread *ths = malloc((size_t)n_ults * sizeof(*ths));
    double t0 = 0;
    for (long r = -1; r < reps; r++) { /* round -1 is the warm-up */
        if (r == 0) {
            barrier(&started);
            t0 = now_ns();
        }
        for (long i = 0; i < n_ults; i++)
            CHECK(ABT_thread_create(w->pool, empty_body, NULL, ABT_THREAD_ATTR_NULL, &ths[i]));
        for (long i = 0; i < n_ults; i++)
            CHECK(ABT_thread_free(&ths[i]));
    }
    w->ns_per_op = (now_ns() - t0) / (double)(reps * n_ults);
    free(ths);
    barrier(&finished);
    if (w != &workers[0]) {
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
    n_ults = arg_long(argc, argv, 3, 256);

    CHECK(ABT_init(0, NULL));
    worker_t *w = workers = calloc((size_t)num_es, sizeof(*w));
    ABT_xstream *es = calloc((size_t)num_es, sizeof(*es));
    ABT_thread *ws = calloc((size_t)num_es, sizeof(*ws));

    w[0].pool = use_private_pool();
    for (int e = 1; e < num_es; e++) {
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &w[e].pool));
        CHECK(ABT_thread_create(w[e].pool, worker, &w[e], ABT_THREAD_ATTR_NULL, &ws[e]));
        CHECK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &w[e].pool, ABT_SCHED_CONFIG_NULL,
                                       &es[e]));
    }
    worker(&w[0]);
    for (int e = 1; e < num_es; e++) {
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

    double lo = w[0].ns_per_op, hi = w[0].ns_per_op;
    for (int e = 1; e < num_es; e++) {
        lo = w[e].ns_per_op < lo ? w[e].ns_per_op : lo;
        hi = w[e].ns_per_op > hi ? w[e].ns_per_op : hi;
    }
    CHECK(ABT_finalize());
    /* ops: ULTs per ES; ops_all: ULTs on all ESs (what callgrind.sh divides by) */
    printf("multi_es e=%d n=%ld reps=%ld ops=%ld ops_all=%ld ns_min=%.2f ns_max=%.2f "
           "ns_per_op=%.2f\n",
           num_es, n_ults, reps, reps * n_ults, num_es * reps * n_ults, lo, hi, hi);
    free(w);
    free(es);
    free(ws);
    return 0;
}
