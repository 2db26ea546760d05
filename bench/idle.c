/*
 * Idle behaviour of sleeping execution streams (PEERS.md "Synchronization
 * and idle behaviour": idle CPU, wake-up; and the join of an idle ES).
 *
 *   idle [quick]
 *     quick  a 0.25 s window, 40 wake-ups, 5 joins, for quick checks
 *            (default: a 1 s window, 200 wake-ups, 20 joins)
 *
 * Setup: 2 secondary ESs, each created with ABT_xstream_create_basic(
 * ABT_SCHED_BASIC_WAIT) over its own ABT_POOL_FIFO_WAIT pool (MPMC,
 * automatic), with nothing to run. The main ULT stays on the primary ES.
 *
 *  a. idle CPU: after 100 ms of settling, the main ULT sleeps for the window
 *     in nanosleep; getrusage(RUSAGE_SELF) before and after gives the
 *     process's CPU time (user + sys) and context switches (ru_nvcsw +
 *     ru_nivcsw), both per second of the window. "wake-ups" are the process's
 *     switches minus the main thread's own (getrusage(RUSAGE_THREAD), Linux),
 *     i.e. those of the ESs' threads: an ES that sleeps with a timeout shows
 *     its timer rate (Argobots: 10 per second per ES), an ES that sleeps
 *     until there is work shows 0. The raw process count is printed too.
 *  b. wake-up latency: the same two ESs, asleep. TRIALS times, the main ULT
 *     sleeps 5 ms (so the ES falls asleep again), reads the clock (t0) and
 *     creates an unnamed ULT into one ES's pool, alternating between the
 *     two; the ULT reads the clock first thing (t1). The main ULT waits for
 *     it, looking every 20 us in between nanosleeps. Two untimed trials (one
 *     per ES) first. Reported: median and p99 of t1 - t0 in us. Then the
 *     same with the first ES only (median): the two ESs taking turns are
 *     each woken half as often, which changes how often the kernel lets
 *     the woken one preempt the main thread (README, "Idle execution
 *     streams").
 *  c. join: JOINS times, a fresh ES (BASIC_WAIT over FIFO_WAIT, as above)
 *     idles 50 ms, then the main ULT times ABT_xstream_join; ABT_xstream_free
 *     follows, untimed. The two ESs of a and b are freed before. Reported:
 *     median and max in ms (Argobots: up to its 100 ms pool timeout).
 *  d. floor: the same wake-up without Argobots: a pthread asleep in
 *     futex_wait, woken by futex_wake; what the machine itself costs. Also
 *     the median time of the futex_wake call alone: the kernel's share of
 *     any wake-up of a sleeping thread, which no library can avoid.
 *
 * Prints a small table, then one key=value line (for run.sh; CPU time and
 * join times there in us).
 */
#define _GNU_SOURCE /* RUSAGE_THREAD; nanosleep and clock_gettime under -std=c11 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_util.h"

#define NUM_ES 2
#define SETTLE_NS 100000000L    /* 100 ms before the idle window */
#define GAP_NS 5000000L         /* 5 ms before each wake-up */
#define POLL_NS 20000L          /* 20 us between looks at the flag */
#define POLL_LIMIT_NS 5e9       /* a ULT that has not run after 5 s: failure */
#define JOIN_IDLE_NS 50000000L  /* 50 ms of idling before each join */
#define WARMUP 2                /* untimed wake-ups, one per ES */

static void sleep_ns(long ns)
{
    struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void create_waiting_es(ABT_pool *pool, ABT_xstream *es)
{
    CHECK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, pool));
    CHECK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, pool, ABT_SCHED_CONFIG_NULL, es));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile pct (1..100) of v[0..n-1], n > 0; sorts v. */
static double percentile(double *v, long n, long pct)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    long rank = (pct * n + 99) / 100; /* ceil(pct / 100 * n) */
    return v[rank < 1 ? 0 : rank - 1];
}

static double cpu_ms(const struct rusage *ru)
{
    return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e3 +
           (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) / 1e3;
}

static long switches(const struct rusage *ru)
{
    return ru->ru_nvcsw + ru->ru_nivcsw;
}

/* a. CPU (ms) and context switches per second while the ESs idle. */
typedef struct {
    double cpu_ms_per_s, es_cpu_ms_per_s, wakeups_per_s, ctxsw_per_s;
} idle_result_t;

static idle_result_t measure_idle(long window_ns)
{
    struct rusage self0, self1, main0 = { 0 }, main1 = { 0 };
    getrusage(RUSAGE_SELF, &self0);
#ifdef RUSAGE_THREAD
    getrusage(RUSAGE_THREAD, &main0);
#endif
    double t0 = now_ns();
    sleep_ns(window_ns);
    double secs = (now_ns() - t0) / 1e9;
    getrusage(RUSAGE_SELF, &self1);
#ifdef RUSAGE_THREAD
    getrusage(RUSAGE_THREAD, &main1);
#endif
    long all = switches(&self1) - switches(&self0);
    long main_thread = switches(&main1) - switches(&main0);
    idle_result_t r;
    r.cpu_ms_per_s = (cpu_ms(&self1) - cpu_ms(&self0)) / secs;
    /* The ESs' threads alone: the process minus the main thread, which has
     * to wake up from its own nanosleep to take the second reading. */
    r.es_cpu_ms_per_s = r.cpu_ms_per_s - (cpu_ms(&main1) - cpu_ms(&main0)) / secs;
    if (r.es_cpu_ms_per_s < 0)
        r.es_cpu_ms_per_s = 0; /* the two readings round differently */
    r.ctxsw_per_s = (double)all / secs;
    r.wakeups_per_s = (double)(all - main_thread) / secs;
    return r;
}

/* b. Where a woken ULT leaves its first clock reading. */
typedef struct {
    double t1;
    atomic_int done;
} wake_slot_t;

static wake_slot_t slot;

static void wake_body(void *arg)
{
    wake_slot_t *s = arg;
    s->t1 = now_ns();
    atomic_store_explicit(&s->done, 1, memory_order_release);
}

/* One wake-up of the ES serving `pool`: ns from before ABT_thread_create to
 * the new ULT's first clock reading. */
static double wake_once(ABT_pool pool)
{
    sleep_ns(GAP_NS);
    atomic_store_explicit(&slot.done, 0, memory_order_relaxed);
    double t0 = now_ns();
    CHECK(ABT_thread_create(pool, wake_body, &slot, ABT_THREAD_ATTR_NULL, NULL));
    while (!atomic_load_explicit(&slot.done, memory_order_acquire)) {
        if (now_ns() - t0 > POLL_LIMIT_NS) {
            fprintf(stderr, "idle: a ULT created into a sleeping ES did not run within 5 s\n");
            exit(1);
        }
        sleep_ns(POLL_NS);
    }
    return slot.t1 - t0;
}

/* TRIALS timed wake-ups after WARMUP untimed ones, taking turns among the
 * first `num` ESs; latencies in us into `lat_us`. */
static void wake_trials(const ABT_pool *pools, int num, double *lat_us, long trials)
{
    for (long i = -WARMUP; i < trials; i++) {
        double ns = wake_once(pools[(i + WARMUP) % num]);
        if (i >= 0)
            lat_us[i] = ns / 1e3;
    }
}

/* d. The floor under b on this machine: no Argobots at all, a pthread asleep
 * in futex_wait, woken by futex_wake after the same 5 ms gap; time from
 * before the wake to the woken thread's first clock read. */
static _Atomic unsigned futex_word;
static _Atomic double futex_t1;

static void *futex_sleeper(void *arg)
{
    long rounds = *(long *)arg;
    for (long i = 0; i < rounds;) {
        unsigned seen = atomic_load(&futex_word);
        if (seen == (unsigned)i) {
            syscall(SYS_futex, &futex_word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
            continue;
        }
        atomic_store(&futex_t1, now_ns());
        i = seen;
    }
    return NULL;
}

typedef struct {
    double wake_us;    /* before futex_wake -> the woken thread's first clock read */
    double syscall_us; /* the futex_wake call alone, until it returns */
} futex_floor_t;

static futex_floor_t futex_baseline_medians(long trials)
{
    double *lat = malloc((size_t)trials * sizeof(*lat));
    double *call = malloc((size_t)trials * sizeof(*call));
    pthread_t thread;
    pthread_create(&thread, NULL, futex_sleeper, &trials);
    for (long i = 0; i < trials; i++) {
        sleep_ns(GAP_NS);
        atomic_store(&futex_t1, 0.0);
        double t0 = now_ns();
        atomic_fetch_add(&futex_word, 1u);
        syscall(SYS_futex, &futex_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        call[i] = (now_ns() - t0) / 1e3;
        while (atomic_load(&futex_t1) == 0.0)
            sleep_ns(POLL_NS);
        lat[i] = (atomic_load(&futex_t1) - t0) / 1e3;
    }
    pthread_join(thread, NULL);
    futex_floor_t r = {percentile(lat, trials, 50), percentile(call, trials, 50)};
    free(lat);
    free(call);
    return r;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    if (argc > 2 || (argc > 1 && !quick)) {
        fprintf(stderr, "usage: %s [quick]\n", argv[0]);
        return 2;
    }
    long window_ns = quick ? 250000000L : 1000000000L;
    long trials = quick ? 40 : 200;
    long joins = quick ? 5 : 20;

    CHECK(ABT_init(0, NULL));
    ABT_pool pools[NUM_ES];
    ABT_xstream es[NUM_ES];
    for (int e = 0; e < NUM_ES; e++)
        create_waiting_es(&pools[e], &es[e]);

    /* a. idle CPU */
    sleep_ns(SETTLE_NS);
    idle_result_t idle = measure_idle(window_ns);

    /* b. wake-up latency, alternating between the two ESs; then (b1) the
     * first ES alone, the other one staying asleep */
    double *lat_us = malloc((size_t)trials * sizeof(*lat_us));
    wake_trials(pools, NUM_ES, lat_us, trials);
    double wake_median = percentile(lat_us, trials, 50);
    double wake_p99 = percentile(lat_us, trials, 99);
    wake_trials(pools, 1, lat_us, trials);
    double wake1_median = percentile(lat_us, trials, 50);

    for (int e = 0; e < NUM_ES; e++) {
        CHECK(ABT_xstream_join(es[e]));
        CHECK(ABT_xstream_free(&es[e]));
    }

    /* c. join of an idle waiting ES */
    double *join_ms = malloc((size_t)joins * sizeof(*join_ms));
    for (long j = 0; j < joins; j++) {
        ABT_pool pool;
        ABT_xstream x;
        create_waiting_es(&pool, &x);
        sleep_ns(JOIN_IDLE_NS);
        double t0 = now_ns();
        CHECK(ABT_xstream_join(x));
        join_ms[j] = (now_ns() - t0) / 1e6;
        CHECK(ABT_xstream_free(&x));
    }
    double join_median = percentile(join_ms, joins, 50);
    double join_max = join_ms[joins - 1]; /* sorted by percentile() */

    CHECK(ABT_finalize());
    futex_floor_t floor = futex_baseline_medians(trials);

    printf("| idle: %d ESs, ABT_SCHED_BASIC_WAIT over ABT_POOL_FIFO_WAIT | value |\n", NUM_ES);
    printf("|---|---|\n");
    printf("| idle CPU of the process (user + sys), %.2f s window | %.3f ms per s |\n",
           (double)window_ns / 1e9, idle.cpu_ms_per_s);
    printf("| idle CPU of the %d ES threads alone | %.3f ms per s |\n", NUM_ES,
           idle.es_cpu_ms_per_s);
    printf("| wake-ups: context switches of the %d ES threads | %.1f per s |\n", NUM_ES,
           idle.wakeups_per_s);
    printf("| context switches of the whole process | %.1f per s |\n", idle.ctxsw_per_s);
    printf("| wake-up latency, create -> first clock read, median / p99 of %ld | "
           "%.1f / %.1f us |\n",
           trials, wake_median, wake_p99);
    printf("| the same, waking only the first ES (the other stays asleep), median of %ld | "
           "%.1f us |\n",
           trials, wake1_median);
    printf("| ABT_xstream_join of an ES idle for 50 ms, median / max of %ld | %.3f / %.3f ms |\n",
           joins, join_median, join_max);
    printf("| floor: futex wake of a sleeping pthread -> first clock read, median of %ld | "
           "%.1f us |\n",
           trials, floor.wake_us);
    printf("| floor: the futex_wake call alone (waking it), median of %ld | %.1f us |\n", trials,
           floor.syscall_us);
    /* In us, so that run.sh's one decimal keeps what a sleeping ES shows. */
    printf("idle es=%d window_s=%.2f trials=%ld joins=%ld cpu_us_per_s=%.1f es_cpu_us_per_s=%.1f "
           "wakeups_per_s=%.1f ctxsw_per_s=%.1f wake_us_median=%.1f wake_us_p99=%.1f "
           "join_us_median=%.1f join_us_max=%.1f futex_wake_us_median=%.1f "
           "futex_call_us_median=%.1f wake1_us_median=%.1f\n",
           NUM_ES, (double)window_ns / 1e9, trials, joins, idle.cpu_ms_per_s * 1e3,
           idle.es_cpu_ms_per_s * 1e3,
           idle.wakeups_per_s, idle.ctxsw_per_s, wake_median, wake_p99, join_median * 1e3,
           join_max * 1e3, floor.wake_us, floor.syscall_us, wake1_median);
    free(lat_us);
    free(join_ms);
    return 0;
}
