/*
 * What blocking costs (PEERS.md "Synchronization and idle behaviour":
 * blocked waiters, timedwait).
 *
 *   sync_block blocked [ULTS]
 *   sync_block timedwait wait|default [CALLS]
 *
 * blocked: one secondary ES, ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT)
 *   over an ABT_POOL_FIFO_WAIT pool (MPMC), runs ULTS (default 100) ULTs that
 *   each lock a mutex, count themselves and ABT_cond_wait until a flag is
 *   set; an external thread (a plain pthread, not an ES) waits in
 *   ABT_eventual_wait. Once the main ULT has seen, holding the mutex, that
 *   all ULTs are waiting, and the pthread has started, 100 ms of settling;
 *   then getrusage(RUSAGE_SELF) (all threads of the process) around a 1 s
 *   nanosleep of the main thread gives the CPU time (user + sys) used in that
 *   second. The main thread's own share (getrusage(RUSAGE_THREAD): waking up
 *   from the nanosleep) is printed too, as is the rest (the ES's, the
 *   pthread's and any thread of the library's). Then the main ULT sets the
 *   flag, broadcasts, sets the eventual and frees everything.
 * timedwait: the main ULT, on the primary ES, holds a mutex and calls
 *   ABT_cond_timedwait with a deadline 50 ms ahead (CLOCK_REALTIME) that
 *   nobody signals, CALLS (default 5) times after one untimed 10 ms call.
 *   `wait`: the primary ES's main scheduler is first replaced with
 *   ABT_SCHED_BASIC_WAIT over an ABT_POOL_FIFO_WAIT pool
 *   (ABT_xstream_set_main_sched_basic), so that the ES may sleep while its
 *   only ULT waits; `default`: the scheduler of ABT_init, which polls its
 *   pool, for contrast. Per call: elapsed time (CLOCK_MONOTONIC) and process
 *   CPU time (getrusage(RUSAGE_SELF), user + sys); each call and the medians
 *   are reported.
 *
 * Prints a few lines of detail, then one key=value line (CPU times there in
 * us, so that run.sh's one decimal keeps them).
 */
#define _GNU_SOURCE /* RUSAGE_THREAD; nanosleep and clock_gettime under -std=c11 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>

#include "bench_util.h"

#define SETTLE_NS 100000000L   /* 100 ms before the window */
#define WINDOW_NS 1000000000L  /* the measured second */
#define TIMEOUT_NS 50000000L   /* the timed wait's 50 ms */
#define WARMUP_NS 10000000L    /* the untimed first timed wait: 10 ms */
#define MAX_CALLS 100

static void sleep_ns(long ns)
{
    struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static double cpu_ms(int who)
{
    struct rusage ru;
    getrusage(who, &ru);
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_CALLS];
    memcpy(s, v, (size_t)n * sizeof(*v));
    qsort(s, (size_t)n, sizeof(*s), cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* ---- blocked ---------------------------------------------------------------- */

static ABT_mutex mutex;
static ABT_cond cond;
static ABT_eventual eventual;
static int go, waiting; /* under mutex */
static atomic_int pthread_started, pthread_done;

static void waiter(void *arg)
{
    (void)arg;
    CHECK(ABT_mutex_lock(mutex));
    waiting++;
    while (!go)
        CHECK(ABT_cond_wait(cond, mutex));
    CHECK(ABT_mutex_unlock(mutex));
}

static void *external_waiter(void *arg)
{
    (void)arg;
    atomic_store(&pthread_started, 1);
    CHECK(ABT_eventual_wait(eventual, NULL));
    atomic_store(&pthread_done, 1);
    return NULL;
}

static int run_blocked(long n)
{
    ABT_pool pool;
    ABT_xstream es;
    pthread_t ext;
    ABT_thread *ths = malloc((size_t)n * sizeof(*ths));
    CHECK(ABT_mutex_create(&mutex));
    CHECK(ABT_cond_create(&cond));
    CHECK(ABT_eventual_create(0, &eventual));
    CHECK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
    CHECK(ABT_xstream_create_basic(ABT_SCHED_BASIC_WAIT, 1, &pool, ABT_SCHED_CONFIG_NULL, &es));
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_create(pool, waiter, NULL, ABT_THREAD_ATTR_NULL, &ths[i]));
    if (pthread_create(&ext, NULL, external_waiter, NULL) != 0) {
        fprintf(stderr, "sync_block: pthread_create failed\n");
        return 1;
    }
    /* A ULT counts itself holding the mutex and releases it only inside
     * ABT_cond_wait: once the main ULT holds the mutex and sees all of them
     * counted, all are queued on the condition. */
    double start = now_ns();
    for (;;) {
        CHECK(ABT_mutex_lock(mutex));
        int w = waiting;
        CHECK(ABT_mutex_unlock(mutex));
        if (w == n && atomic_load(&pthread_started))
            break;
        if (now_ns() - start > 5e9) {
            fprintf(stderr, "sync_block: only %d of %ld ULTs waiting after 5 s\n", w, n);
            return 1;
        }
        sleep_ns(1000000L);
    }
    sleep_ns(SETTLE_NS);

    double self0 = cpu_ms(RUSAGE_SELF), main0 = cpu_ms(RUSAGE_THREAD);
    double t0 = now_ns();
    sleep_ns(WINDOW_NS);
    double t1 = now_ns();
    double self1 = cpu_ms(RUSAGE_SELF), main1 = cpu_ms(RUSAGE_THREAD);
    double secs = (t1 - t0) / 1e9;
    double cpu = self1 - self0, main_cpu = main1 - main0;
    double rest = cpu - main_cpu < 0 ? 0 : cpu - main_cpu;

    int early = atomic_load(&pthread_done);
    CHECK(ABT_mutex_lock(mutex));
    go = 1;
    CHECK(ABT_cond_broadcast(cond));
    CHECK(ABT_mutex_unlock(mutex));
    CHECK(ABT_eventual_set(eventual, NULL, 0));
    for (long i = 0; i < n; i++)
        CHECK(ABT_thread_free(&ths[i]));
    pthread_join(ext, NULL);
    CHECK(ABT_xstream_join(es));
    CHECK(ABT_xstream_free(&es));
    CHECK(ABT_eventual_free(&eventual));
    CHECK(ABT_cond_free(&cond));
    CHECK(ABT_mutex_free(&mutex));
    free(ths);
    CHECK(ABT_finalize());
    if (early) {
        fprintf(stderr, "sync_block: the external thread returned from ABT_eventual_wait "
                        "before the eventual was set\n");
        return 1;
    }

    printf("| blocked: %ld ULTs in ABT_cond_wait on a BASIC_WAIT ES + a pthread in "
           "ABT_eventual_wait | value |\n|---|---|\n", n);
    printf("| CPU time of the process (user + sys) in a %.3f s window | %.3f ms |\n", secs, cpu);
    printf("| of which the main thread (waking from its nanosleep) | %.3f ms |\n", main_cpu);
    printf("| of which the other threads (ES, pthread, library threads) | %.3f ms |\n", rest);
    printf("sync_block op=blocked ults=%ld window_s=%.3f cpu_ms=%.3f cpu_us=%.1f "
           "main_cpu_us=%.1f others_cpu_us=%.1f\n",
           n, secs, cpu, cpu * 1e3, main_cpu * 1e3, rest * 1e3);
    return 0;
}

/* ---- timedwait ---------------------------------------------------------------- */

/* One ABT_cond_timedwait with a deadline timeout_ns ahead, which must expire.
 * Returns the elapsed ms; *cpu: the process's CPU ms meanwhile. */
static double timedwait_once(long timeout_ns, double *cpu)
{
    struct timespec deadline;
    double c0 = cpu_ms(RUSAGE_SELF);
    double t0 = now_ns();
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_nsec += timeout_ns;
    deadline.tv_sec += deadline.tv_nsec / 1000000000L;
    deadline.tv_nsec %= 1000000000L;
    int ret = ABT_cond_timedwait(cond, mutex, &deadline);
    double t1 = now_ns();
    *cpu = cpu_ms(RUSAGE_SELF) - c0;
    if (ret != ABT_ERR_COND_TIMEDOUT) {
        fprintf(stderr, "sync_block: ABT_cond_timedwait returned %d, expected "
                        "ABT_ERR_COND_TIMEDOUT (%d)\n", ret, ABT_ERR_COND_TIMEDOUT);
        exit(1);
    }
    return (t1 - t0) / 1e6;
}

static int run_timedwait(int wait_sched, int calls)
{
    double elapsed[MAX_CALLS], cpu[MAX_CALLS], warm_cpu;
    if (wait_sched) {
        ABT_xstream self;
        ABT_pool pool;
        CHECK(ABT_xstream_self(&self));
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO_WAIT, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool));
        CHECK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC_WAIT, 1, &pool));
    }
    CHECK(ABT_mutex_create(&mutex));
    CHECK(ABT_cond_create(&cond));
    CHECK(ABT_mutex_lock(mutex));
    timedwait_once(WARMUP_NS, &warm_cpu);
    for (int i = 0; i < calls; i++)
        elapsed[i] = timedwait_once(TIMEOUT_NS, &cpu[i]);
    CHECK(ABT_mutex_unlock(mutex));
    CHECK(ABT_cond_free(&cond));
    CHECK(ABT_mutex_free(&mutex));
    CHECK(ABT_finalize());

    const char *sched = wait_sched ? "basic_wait" : "default";
    printf("| timedwait, 50 ms, main ULT, %s scheduler | elapsed ms | CPU ms |\n|---|---|---|\n",
           sched);
    for (int i = 0; i < calls; i++)
        printf("| call %d | %.3f | %.3f |\n", i + 1, elapsed[i], cpu[i]);
    double em = median(elapsed, calls), cm = median(cpu, calls);
    printf("| median of %d | %.3f | %.3f |\n", calls, em, cm);
    printf("sync_block op=timedwait sched=%s timeout_ms=%.0f calls=%d elapsed_ms_median=%.3f "
           "cpu_ms_median=%.3f cpu_us_median=%.1f elapsed_ms=",
           sched, TIMEOUT_NS / 1e6, calls, em, cm, cm * 1e3);
    for (int i = 0; i < calls; i++)
        printf("%s%.3f", i ? "," : "", elapsed[i]);
    printf(" cpu_us=");
    for (int i = 0; i < calls; i++)
        printf("%s%.1f", i ? "," : "", cpu[i] * 1e3);
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *op = argc > 1 ? argv[1] : "";
    if (strcmp(op, "blocked") == 0 && argc <= 3) {
        long n = arg_long(argc, argv, 2, 100);
        CHECK(ABT_init(0, NULL));
        return run_blocked(n);
    }
    if (strcmp(op, "timedwait") == 0 && argc >= 3 && argc <= 4 &&
        (strcmp(argv[2], "wait") == 0 || strcmp(argv[2], "default") == 0)) {
        long calls = arg_long(argc, argv, 3, 5);
        if (calls > MAX_CALLS) {
            fprintf(stderr, "sync_block: at most %d calls\n", MAX_CALLS);
            return 2;
        }
        CHECK(ABT_init(0, NULL));
        return run_timedwait(strcmp(argv[2], "wait") == 0, (int)calls);
    }
    fprintf(stderr, "usage: %s blocked [ULTS] | timedwait wait|default [CALLS]\n", argv[0]);
    return 2;
}
