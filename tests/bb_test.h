/*
 * A tiny test harness: one process per test, a watchdog that turns a hang
 * into a failure, and assertions that print both sides.
 *
 *   #include "bb_test.h"
 *   int main(void) { BB_TEST_BEGIN(10); ... CHECK_EQ(a, b); ... BB_TEST_END(); }
 *
 * The watchdog (alarm) kills the test after the given number of seconds with
 * a message and a backtrace of each of its OS threads (bb_test_dump_threads),
 * so ctest records a failure, and what hung, instead of blocking CI. ctest has its
 * own TIMEOUT as a second line of defence.
 */
#ifndef BB_TEST_H
#define BB_TEST_H

#include <abt.h>
#include <valgrind/valgrind.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int bb_test_failures;

/* The process id as text, made before any hang (the watchdog may call only
 * async-signal-safe functions); empty when no dump is wanted. */
static char bb_test_pid[24];

/* What the test was doing when the watchdog fired: gdb attaches and prints
 * the backtrace of every OS thread, then, with the library's gdb commands
 * (scripts/bobbin-gdb.py), every work unit and where it stands; at most 30 s
 * and 300 lines, to stderr (into ctest's log). An intermittent hang in CI
 * then leaves more than its name. Skipped where gdb or timeout(1) is
 * missing, and under valgrind, whose threads gdb cannot read. */
#ifndef BB_TEST_GDB_SCRIPT
#define BB_TEST_GDB_SCRIPT "/dev/null"
#endif
static void bb_test_dump_threads(void)
{
    static const char script[] =
        "timeout 30 gdb -nx -batch -p \"$1\" -ex 'thread apply all bt' -x \"$2\" "
        "-ex 'bobbin ults' 2>&1 </dev/null | head -n 300 >&2";
    pid_t child = fork();
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", script, "sh", bb_test_pid, BB_TEST_GDB_SCRIPT, (char *)NULL);
        _exit(127);
    }
    if (child > 0)
        waitpid(child, NULL, 0);
}

/* Where a long test is, for the watchdog's message: BB_TEST_AT(stage, i) as
 * it goes (stage 0: not set, nothing printed). A hang that happens once in
 * thousands of CI runs then says which loop and iteration it stopped in. */
static atomic_int bb_test_stage, bb_test_iter;
#define BB_TEST_AT(stage, i)                                                               \
    (atomic_store_explicit(&bb_test_stage, (stage), memory_order_relaxed),                 \
     atomic_store_explicit(&bb_test_iter, (i), memory_order_relaxed))

/* write(2) of "stage S, iteration I\n", async-signal-safe. */
static void bb_test_write_where(void)
{
    char buf[64];
    int len = 0;
    int values[2] = {atomic_load_explicit(&bb_test_stage, memory_order_relaxed),
                     atomic_load_explicit(&bb_test_iter, memory_order_relaxed)};
    static const char *const words[2] = {"at stage ", ", iteration "};
    if (values[0] == 0)
        return;
    for (int k = 0; k < 2; k++) {
        for (const char *w = words[k]; *w; w++)
            buf[len++] = *w;
        unsigned v = (unsigned)values[k];
        char digits[12];
        int n = 0;
        do
            digits[n++] = (char)('0' + v % 10);
        while ((v /= 10) != 0);
        while (n)
            buf[len++] = digits[--n];
    }
    buf[len++] = '\n';
    if (write(2, buf, (size_t)len) < 0) {
        /* nothing more we can do */
    }
}

static void bb_test_watchdog(int sig)
{
    static const char msg[] = "FAIL: watchdog expired (test hung)\n";
    (void)sig;
    if (write(2, msg, sizeof(msg) - 1) < 0) {
        /* nothing more we can do */
    }
    bb_test_write_where();
    if (bb_test_pid[0])
        bb_test_dump_threads();
    _exit(124);
}

static inline int bb_test_is_slow_run(void);

/* Under ThreadSanitizer or valgrind, or on one CPU (bb_test_is_slow_run),
 * a test may take several times longer, more so with other tests on the
 * same CPUs: the watchdog waits three times as long there, but fires
 * before ctest's own TIMEOUT (120 s, tests/CMakeLists.txt), so that a hang
 * still leaves its thread dump. */
static inline void bb_test_begin(unsigned seconds)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    if (!RUNNING_ON_VALGRIND)
        snprintf(bb_test_pid, sizeof(bb_test_pid), "%ld", (long)getpid());
    (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0); /* for the dump, under Yama */
    signal(SIGALRM, bb_test_watchdog);
    if (bb_test_is_slow_run())
        seconds = seconds * 3 < 110 ? seconds * 3 : (seconds > 110 ? seconds : 110);
    alarm(seconds);
}

#define BB_TEST_BEGIN(seconds) bb_test_begin(seconds)

/* Under ThreadSanitizer every context switch costs tens of microseconds and
 * every ULT that has run holds one of its 8128 thread slots; under valgrind
 * everything runs tens of times slower and mappings are tracked in a fixed
 * table. Stress tests pick their sizes at run time with
 * BB_TEST_SIZE(normal, small); static arrays take the normal size. */
#if defined(__SANITIZE_THREAD__)
#define BB_TEST_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define BB_TEST_UNDER_TSAN 1
#endif
#endif
#ifndef BB_TEST_UNDER_TSAN
#define BB_TEST_UNDER_TSAN 0
#endif
/* AddressSanitizer's frames are larger: tests of small stacks skip it. */
#if defined(__SANITIZE_ADDRESS__)
#define BB_TEST_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BB_TEST_UNDER_ASAN 1
#endif
#endif
#ifndef BB_TEST_UNDER_ASAN
#define BB_TEST_UNDER_ASAN 0
#endif
/* MemorySanitizer (clang): its allocator is not glibc's, so mallinfo2 counts
 * nothing of it. */
#if defined(__has_feature)
#if __has_feature(memory_sanitizer)
#define BB_TEST_UNDER_MSAN 1
#endif
#endif
#ifndef BB_TEST_UNDER_MSAN
#define BB_TEST_UNDER_MSAN 0
#endif
/* Whether this process may run on one CPU only (taskset, a cgroup's
 * cpuset, a VM of one core). Then every ES, and any thread of the test,
 * takes turns on it at the kernel's ticks, and a test whose threads poll
 * for one another moves a few steps per tick. Read from /proc, not asked
 * of sched_getaffinity: its wrapper needs _GNU_SOURCE, which a test may
 * not define before its first include, and a test may interpose syscall. */
static inline int bb_test_has_one_cpu(void)
{
    static int known = -1;
    if (known < 0) {
        char line[4096];
        int cpus = 2; /* unknown: as if several */
        FILE *f = fopen("/proc/self/status", "r");
        while (f && fgets(line, sizeof(line), f)) {
            if (strncmp(line, "Cpus_allowed:", 13) != 0)
                continue;
            cpus = 0; /* a hexadecimal mask, in words between commas */
            for (const char *c = line + 13; *c; c++)
                if (*c >= '0' && *c <= '9')
                    cpus += __builtin_popcount((unsigned)(*c - '0'));
                else if (*c >= 'a' && *c <= 'f')
                    cpus += __builtin_popcount((unsigned)(*c - 'a' + 10));
            break;
        }
        if (f)
            fclose(f);
        known = cpus < 2;
    }
    return known;
}

/* A run where the test's threads do not run side by side at full speed:
 * under ThreadSanitizer or valgrind, or on one CPU. */
static inline int bb_test_is_slow_run(void)
{
    return BB_TEST_UNDER_TSAN || RUNNING_ON_VALGRIND || bb_test_has_one_cpu();
}
#define BB_TEST_SIZE(normal, small) (bb_test_is_slow_run() ? (small) : (normal))

#define BB_TEST_END()                                                                      \
    do {                                                                                   \
        if (bb_test_failures) {                                                            \
            fprintf(stderr, "%d check(s) failed\n", bb_test_failures);                    \
            return 1;                                                                      \
        }                                                                                  \
        printf("PASS\n");                                                                  \
        return 0;                                                                          \
    } while (0)

#define BB_FAIL_AT(fmt, ...)                                                               \
    do {                                                                                   \
        fprintf(stderr, "%s:%d: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__);             \
        bb_test_failures++;                                                                \
    } while (0)

/* Integer-like comparisons print both values. */
#define CHECK_EQ(a, b)                                                                     \
    do {                                                                                   \
        long long va_ = (long long)(a), vb_ = (long long)(b);                              \
        if (va_ != vb_)                                                                    \
            BB_FAIL_AT("CHECK_EQ(%s, %s): %lld != %lld", #a, #b, va_, vb_);                \
    } while (0)

#define CHECK_NE(a, b)                                                                     \
    do {                                                                                   \
        long long va_ = (long long)(a), vb_ = (long long)(b);                              \
        if (va_ == vb_)                                                                    \
            BB_FAIL_AT("CHECK_NE(%s, %s): both %lld", #a, #b, va_);                        \
    } while (0)

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond))                                                                       \
            BB_FAIL_AT("CHECK(%s) is false", #cond);                                       \
    } while (0)

/* An Argobots call that must succeed; prints the returned code otherwise. */
#define CHECK_OK(call)                                                                     \
    do {                                                                                   \
        int ret_ = (call);                                                                 \
        if (ret_ != ABT_SUCCESS)                                                           \
            BB_FAIL_AT("%s returned %d, expected ABT_SUCCESS", #call, ret_);               \
    } while (0)

/* An Argobots call that must fail with a given code. */
#define CHECK_ERR(call, code)                                                              \
    do {                                                                                   \
        int ret_ = (call);                                                                 \
        if (ret_ != (code))                                                                \
            BB_FAIL_AT("%s returned %d, expected %s (%d)", #call, ret_, #code, (int)(code)); \
    } while (0)

/* A log of one-character events, to check the order in which units ran:
 * bb_seq_note(c) appends (bb_seq_log_char is a unit body that notes its
 * argument), bb_seq_reset() empties it, bb_seq holds it as a string. */
static __attribute__((unused)) char bb_seq[512];
static __attribute__((unused)) int bb_seq_len;

static inline void bb_seq_reset(void)
{
    bb_seq_len = 0;
    bb_seq[0] = '\0';
}

static inline void bb_seq_note(char c)
{
    if (bb_seq_len < (int)sizeof(bb_seq) - 1)
        bb_seq[bb_seq_len++] = c;
    bb_seq[bb_seq_len] = '\0';
}

static inline void bb_seq_log_char(void *arg)
{
    bb_seq_note((char)(intptr_t)arg);
}

/* `t` moved by `ns` nanoseconds (negative: back), with tv_nsec kept in
 * [0, 1e9) when it was there. For deadlines spaced from a common base. */
static inline struct timespec bb_test_timespec_add_ns(struct timespec t, long long ns)
{
    long long nsec = t.tv_nsec + ns % 1000000000LL; /* in (-1e9, 2e9) */
    t.tv_sec += (time_t)(ns / 1000000000LL);
    if (nsec < 0) {
        nsec += 1000000000LL;
        t.tv_sec--;
    } else if (nsec >= 1000000000LL) {
        nsec -= 1000000000LL;
        t.tv_sec++;
    }
    t.tv_nsec = (long)nsec;
    return t;
}

/* An absolute CLOCK_REALTIME time `ms` milliseconds from now (negative: in
 * the past), the clock of the abstime of ABT_cond_timedwait and
 * ABT_eventual_timedwait. */
static inline struct timespec bb_test_realtime_in_ms(long ms)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return bb_test_timespec_add_ns(now, ms * 1000000LL);
}

/* The first main pool of the caller's ES. */
static inline ABT_pool bb_test_main_pool(void)
{
    ABT_xstream self;
    ABT_pool pool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    return pool;
}

/* Take `*t`, the next unit waiting in `from` (which nobody serves), into
 * the caller's main pool, and free it there: it runs to its end. */
static inline void bb_test_run_from(ABT_pool from, ABT_thread *t)
{
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(from, &popped));
    CHECK(popped == *t);
    CHECK_OK(ABT_pool_push_thread(bb_test_main_pool(), popped));
    CHECK_OK(ABT_thread_free(t));
}

/* ABT_init with its stdout (what ABT_PRINT_CONFIG prints) captured into
 * `out`, NUL-terminated; returns the length. ABT_init runs even if the pipe
 * cannot be made (a failed check). */
static inline size_t bb_test_init_captured(char *out, size_t size)
{
    int fds[2];
    out[0] = '\0';
    if (pipe(fds) != 0) {
        BB_FAIL_AT("%s", "pipe failed");
        CHECK_OK(ABT_init(0, NULL));
        return 0;
    }
    fflush(stdout);
    int saved = dup(1);
    dup2(fds[1], 1);
    close(fds[1]);
    CHECK_OK(ABT_init(0, NULL));
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    size_t len = 0;
    ssize_t n;
    while (len < size - 1 && (n = read(fds[0], out + len, size - 1 - len)) > 0)
        len += (size_t)n;
    out[len] = '\0';
    close(fds[0]);
    return len;
}

#endif
