/* A ULT that overflows its stack runs into the guard page below it; the
 * process then prints which ULT it was (its ID and its function) and
 * aborts, instead of corrupting memory. Done in a child process, whose
 * standard error the test reads. Also: code a scheduler runs itself (the
 * key destructor of an unnamed ULT) that overflows is reported as the
 * scheduler's, also under sc and auto, where the scheduler has lent its
 * stack and holds none meanwhile (a stress audit found a bare SIGSEGV
 * there); and a fault elsewhere (not a guard page) still gets the
 * program's own SIGSEGV handler. The scheduler's case needs the stack
 * pointer the fault interrupted, which the generic CPU code cannot read
 * (ABT_info_print_config says which code a build has): skipped there. */
#include "bb_test.h"
#include "capture_util.h"
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>

static volatile char sink;
static volatile int limit = 1 << 30; /* never reached: the stack is 16 KiB */

static int recurse(int depth)
{
    volatile char frame[512];
    frame[0] = (char)depth;
    sink = frame[0];
    if (depth == limit)
        return 0;
    return recurse(depth + 1) + frame[0]; /* not a tail call */
}

static void overflow_me(void *arg)
{
    (void)arg;
    ABT_unit_id id;
    ABT_self_get_thread_id(&id);
    fprintf(stderr, "victim %llu\n", (unsigned long long)id);
    recurse(0);
}

/* In the child: overflow a ULT on a secondary ES. Never returns. */
static void child_overflow(void)
{
    ABT_init(0, NULL);
    ABT_xstream es;
    ABT_pool pool;
    ABT_xstream_create(ABT_SCHED_NULL, &es);
    ABT_xstream_get_main_pools(es, 1, &pool);
    ABT_thread t;
    ABT_thread_create(pool, overflow_me, NULL, ABT_THREAD_ATTR_NULL, &t);
    ABT_thread_join(t);
    _exit(0); /* not reached */
}

static void destroy_deeply(void *value)
{
    (void)value;
    recurse(0);
}

static void set_key(void *arg)
{
    ABT_key key = *(ABT_key *)arg;
    ABT_key_set(key, (void *)1);
}

/* In the child: an unnamed ULT's key destructor, which its scheduler runs
 * when the ULT ends, overflows. Never returns. */
static void child_sched_overflow(void)
{
    static ABT_key key;
    ABT_init(0, NULL);
    ABT_key_create(destroy_deeply, &key);
    ABT_xstream es;
    ABT_pool pool;
    ABT_xstream_create(ABT_SCHED_NULL, &es);
    ABT_xstream_get_main_pools(es, 1, &pool);
    ABT_thread_create(pool, set_key, &key, ABT_THREAD_ATTR_NULL, NULL);
    ABT_xstream_join(es);
    _exit(0); /* not reached */
}

static void own_handler(int sig)
{
    (void)sig;
    VALGRIND_ENABLE_ERROR_REPORTING; /* as it was before the deliberate fault */
    _exit(42);
}

/* In the child: a wild pointer in a ULT goes to the program's handler. */
static void child_wild_pointer(void)
{
    signal(SIGSEGV, own_handler);
    ABT_init(0, NULL);
    volatile int *volatile wild = (int *)(uintptr_t)16;
    VALGRIND_DISABLE_ERROR_REPORTING; /* the fault is the point: memcheck, keep quiet */
    *wild = 1;
    _exit(0);
}

/* Whether this build has the CPU code that reads a signal's stack pointer. */
static bool reads_signal_sp(void)
{
    char *config;
    CHECK_OK(ABT_init(0, NULL));
    CAPTURE(config, ABT_info_print_config(fp));
    CHECK_OK(ABT_finalize());
    bool generic = strstr(config, "generic CPU code") != NULL;
    free(config);
    return !generic;
}

static int run_child(void (*fn)(void), char *err, size_t len)
{
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        fn();
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t n;
    while (got + 1 < len && (n = read(fds[0], err + got, len - 1 - got)) > 0)
        got += (size_t)n;
    err[got] = '\0';
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    char err[4096];
    int status = run_child(child_overflow, err, sizeof(err));
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    unsigned long long id;
    CHECK_EQ(sscanf(err, "victim %llu", &id), 1);
    char expect[128];
    snprintf(expect, sizeof(expect), "stack overflow in ULT %llu (function %p", id,
             (void *)(uintptr_t)overflow_me);
    if (!strstr(err, expect))
        BB_FAIL_AT("the report does not name the ULT (%s): %s", expect, err);

    if (reads_signal_sp()) {
        status = run_child(child_sched_overflow, err, sizeof(err));
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
        if (!strstr(err, "stack overflow in scheduler ULT"))
            BB_FAIL_AT("no report naming the scheduler: %s", err);
    } else {
        printf("generic CPU code: the scheduler's case is skipped\n");
    }

    status = run_child(child_wild_pointer, err, sizeof(err));
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 42);
    CHECK(strstr(err, "stack overflow") == NULL);
    BB_TEST_END();
}
