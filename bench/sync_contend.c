/*
 * Synchronization across two execution streams (PEERS.md "Synchronization
 * and idle behaviour": contended mutex, ping-pong).
 *
 *   sync_contend mutex [--wait] [ITERS]
 *   sync_contend pingpong-eventual [--wait] [ROUNDS]
 *   sync_contend pingpong-cond [--wait] [ROUNDS]
 *
 * Two ESs: the primary (ES 0) and one secondary (ES 1), each with its own
 * MPMC FIFO pool. The primary ES gets its pool with
 * ABT_xstream_set_main_sched_basic, the secondary with
 * ABT_xstream_create_basic. Schedulers: ABT_SCHED_BASIC over ABT_POOL_FIFO
 * (polling), or with --wait ABT_SCHED_BASIC_WAIT over ABT_POOL_FIFO_WAIT on
 * both ESs (sleeping).
 *
 * mutex: 8 ULTs per ES (16 in all), each ITERS (default 32768) times
 *   {ABT_mutex_lock; counter++; ABT_mutex_unlock} on one mutex. A start gate
 *   makes the two ESs really contend: every ULT first counts itself and then
 *   calls ABT_thread_yield until a flag is set; the main ULT yields until all
 *   16 have arrived (so ES 1's thread is up and running), starts the clock
 *   and sets the flag. Without the gate ES 0 can finish its 8 ULTs before
 *   the new ES's thread first runs, and the two ESs never overlap. The clock
 *   stops when the main ULT has freed (joined) all 16. Reported: wall time /
 *   (16 * ITERS) in ns per increment; the counter is checked (exit 1 if it is
 *   wrong), and so is the number of times the lock passed from one ES to the
 *   other (handovers=, for information).
 * pingpong-eventual: the main ULT (A, on ES 0) and a ULT (B, on ES 1). Per
 *   round A sets eB, waits on eA, resets eA; B waits on eB, resets eB, sets
 *   eA. Eventuals without payload.
 * pingpong-cond: one mutex, two condition variables (cA, cB) and a turn
 *   flag. Per round A locks, hands the turn to B, signals cB, waits on cA
 *   until the turn is back, unlocks; B locks, waits on cB until it has the
 *   turn, hands it back, signals cA, unlocks.
 *   Ping-pong: WARMUP untimed rounds, then ROUNDS (default 100000) timed by
 *   A; reported in ns per round trip.
 */
#include <stdatomic.h>

#include "bench_util.h"

#define ULTS_PER_ES 8
#define WARMUP 100

static ABT_pool pools[2];
static ABT_xstream es1;
static int use_wait;

/* ES 0 (the primary, with the main ULT) and ES 1, both with their own MPMC
 * FIFO pool. ES 1 is created later, by start_es1(), so that ULTs can be put
 * into its pool first. */
static void setup_primary(void)
{
    ABT_pool_kind kind = use_wait ? ABT_POOL_FIFO_WAIT : ABT_POOL_FIFO;
    ABT_sched_predef sched = use_wait ? ABT_SCHED_BASIC_WAIT : ABT_SCHED_BASIC;
    ABT_xstream self;
    for (int e = 0; e < 2; e++)
        CHECK(ABT_pool_create_basic(kind, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pools[e]));
    CHECK(ABT_xstream_self(&self));
    CHECK(ABT_xstream_set_main_sched_basic(self, sched, 1, &pools[0]));
}

static void start_es1(void)
{
    ABT_sched_predef sched = use_wait ? ABT_SCHED_BASIC_WAIT : ABT_SCHED_BASIC;
    CHECK(ABT_xstream_create_basic(sched, 1, &pools[1], ABT_SCHED_CONFIG_NULL, &es1));
}

static void stop_es1(void)
{
    CHECK(ABT_xstream_join(es1));
    CHECK(ABT_xstream_free(&es1));
}

/* ---- contended mutex ---------------------------------------------------- */

static ABT_mutex mutex;
static long counter, iters;
static long handovers; /* the lock passed from one ES to the other; under mutex */
static int last_es = -1; /* under mutex */
static atomic_int arrived, go;

static void incrementer(void *arg)
{
    int es = (int)(long)arg;
    atomic_fetch_add(&arrived, 1);
    while (!atomic_load(&go))
        CHECK(ABT_thread_yield());
    for (long i = 0; i < iters; i++) {
        CHECK(ABT_mutex_lock(mutex));
        counter++;
        if (es != last_es) {
            handovers++;
            last_es = es;
        }
        CHECK(ABT_mutex_unlock(mutex));
    }
}

static double run_mutex(long *ops)
{
    ABT_thread ths[2 * ULTS_PER_ES];
    CHECK(ABT_mutex_create(&mutex));
    for (int i = 0; i < 2 * ULTS_PER_ES; i++)
        CHECK(ABT_thread_create(pools[i / ULTS_PER_ES], incrementer, (void *)(long)(i / ULTS_PER_ES),
                                ABT_THREAD_ATTR_NULL, &ths[i]));
    start_es1();
    while (atomic_load(&arrived) < 2 * ULTS_PER_ES)
        CHECK(ABT_thread_yield());
    double t0 = now_ns();
    atomic_store(&go, 1);
    for (int i = 0; i < 2 * ULTS_PER_ES; i++)
        CHECK(ABT_thread_free(&ths[i]));
    double t1 = now_ns();
    stop_es1();
    CHECK(ABT_mutex_free(&mutex));
    *ops = 2 * ULTS_PER_ES * iters;
    if (counter != *ops) {
        fprintf(stderr, "sync_contend: counter is %ld, expected %ld\n", counter, *ops);
        exit(1);
    }
    return (t1 - t0) / (double)*ops;
}

/* ---- ping-pong ------------------------------------------------------------ */

static long total_rounds; /* WARMUP + timed rounds, on both sides */
static ABT_eventual ev_a, ev_b;
static ABT_cond cond_a, cond_b;
static int turn; /* 0: A's turn, 1: B's; under mutex */

static void eventual_b(void *arg)
{
    (void)arg;
    for (long i = 0; i < total_rounds; i++) {
        CHECK(ABT_eventual_wait(ev_b, NULL));
        CHECK(ABT_eventual_reset(ev_b));
        CHECK(ABT_eventual_set(ev_a, NULL, 0));
    }
}

static void eventual_a_round(void)
{
    CHECK(ABT_eventual_set(ev_b, NULL, 0));
    CHECK(ABT_eventual_wait(ev_a, NULL));
    CHECK(ABT_eventual_reset(ev_a));
}

static void cond_b_body(void *arg)
{
    (void)arg;
    for (long i = 0; i < total_rounds; i++) {
        CHECK(ABT_mutex_lock(mutex));
        while (turn != 1)
            CHECK(ABT_cond_wait(cond_b, mutex));
        turn = 0;
        CHECK(ABT_cond_signal(cond_a));
        CHECK(ABT_mutex_unlock(mutex));
    }
}

static void cond_a_round(void)
{
    CHECK(ABT_mutex_lock(mutex));
    turn = 1;
    CHECK(ABT_cond_signal(cond_b));
    while (turn != 0)
        CHECK(ABT_cond_wait(cond_a, mutex));
    CHECK(ABT_mutex_unlock(mutex));
}

static double run_pingpong(int cond, long rounds)
{
    total_rounds = WARMUP + rounds;
    if (cond) {
        CHECK(ABT_mutex_create(&mutex));
        CHECK(ABT_cond_create(&cond_a));
        CHECK(ABT_cond_create(&cond_b));
    } else {
        CHECK(ABT_eventual_create(0, &ev_a));
        CHECK(ABT_eventual_create(0, &ev_b));
    }
    void (*a_round)(void) = cond ? cond_a_round : eventual_a_round;
    ABT_thread b;
    CHECK(ABT_thread_create(pools[1], cond ? cond_b_body : eventual_b, NULL,
                            ABT_THREAD_ATTR_NULL, &b));
    start_es1();
    for (long i = 0; i < WARMUP; i++)
        a_round();
    double t0 = now_ns();
    for (long i = 0; i < rounds; i++)
        a_round();
    double t1 = now_ns();
    CHECK(ABT_thread_free(&b));
    stop_es1();
    if (cond) {
        CHECK(ABT_cond_free(&cond_a));
        CHECK(ABT_cond_free(&cond_b));
        CHECK(ABT_mutex_free(&mutex));
    } else {
        CHECK(ABT_eventual_free(&ev_a));
        CHECK(ABT_eventual_free(&ev_b));
    }
    return (t1 - t0) / (double)rounds;
}

int main(int argc, char **argv)
{
    const char *op = argc > 1 ? argv[1] : "";
    int kind = strcmp(op, "mutex") == 0               ? 0
               : strcmp(op, "pingpong-eventual") == 0 ? 1
               : strcmp(op, "pingpong-cond") == 0     ? 2
                                                      : -1;
    /* --wait may come anywhere after the workload; drop it from argv. */
    int n = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--wait") == 0)
            use_wait = 1;
        else
            argv[n++] = argv[i];
    }
    argc = n;
    if (kind < 0 || argc > 3) {
        fprintf(stderr, "usage: %s mutex|pingpong-eventual|pingpong-cond [--wait] [N]\n",
                argv[0]);
        return 2;
    }
    long count = arg_long(argc, argv, 2, kind == 0 ? 32768 : 100000);

    CHECK(ABT_init(0, NULL));
    setup_primary();
    long ops = count;
    double ns;
    if (kind == 0) {
        iters = count;
        ns = run_mutex(&ops);
    } else {
        ns = run_pingpong(kind == 2, count);
    }
    CHECK(ABT_finalize());
    printf("sync_contend op=%s sched=%s es=2 %s=%ld ops=%ld ", op, use_wait ? "basic_wait" : "basic",
           kind == 0 ? "iters_per_ult" : "rounds", count, ops);
    if (kind == 0)
        printf("counter=%ld handovers=%ld ", counter, handovers - 1);
    printf("ns_per_op=%.2f\n", ns);
    return 0;
}
