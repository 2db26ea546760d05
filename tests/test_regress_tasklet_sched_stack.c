/* A tasklet runs on its scheduler's stack, which in Argobots is one of
 * ABT_SCHED_STACKSIZE (4 MiB by default), so a tasklet may use far more
 * stack than a ULT's 16 KiB. Under sc and auto (the default), the main
 * scheduler of an ES runs on a default-size ULT stack, which it lends to
 * the ULTs it calls; a tasklet that used some 15 KiB of stack there, on
 * the primary or on a secondary ES, crashed with a bare SIGSEGV (an audit
 * of stack use). Each technique: tasklets that use 256 KiB of stack, run by
 * the main scheduler of each kind of ES, by a user-defined main scheduler
 * that replaced a predefined one, and a ULT after them on the same ES
 * (which still gets the lent stack under sc). And a tasklet that overflows
 * that stack is named by the overflow report, as a ULT is. */
#include "sched_user_util.h"
#include "stack_use_util.h"
#include "technique_util.h"
#include <sys/wait.h>

#define DEPTH 256 /* 256 KiB: far beyond a ULT stack, far within 4 MiB */

static void tasklet_fn(void *arg)
{
    *(int *)arg = use_stack_kib(DEPTH);
}

static void ult_fn(void *arg)
{
    *(int *)arg = 1;
}

static volatile int forever = 1 << 30;

static int endless(int level)
{
    volatile char frame[1024];
    frame[0] = (char)level;
    if (level == forever)
        return 0;
    return endless(level + 1) + frame[0]; /* not a tail call */
}

static void overflow_fn(void *arg)
{
    (void)arg;
    endless(0);
}

/* In a child, under `technique` with a 64 KiB ABT_SCHED_STACKSIZE: a
 * tasklet on a secondary ES overflows (under sc the ES's big stack, under
 * full its scheduler's own); its standard error goes to `fd`. */
static void child_overflow(int fd, const char *technique)
{
    dup2(fd, STDERR_FILENO);
    setenv("ABT_THREAD_TECHNIQUE", technique, 1);
    setenv("ABT_SCHED_STACKSIZE", "65536", 1);
    ABT_init(0, NULL);
    ABT_xstream es;
    ABT_pool pool;
    ABT_xstream_create(ABT_SCHED_NULL, &es);
    ABT_xstream_get_main_pools(es, 1, &pool);
    ABT_task task;
    ABT_task_create(pool, overflow_fn, NULL, &task);
    ABT_task_free(&task);
    _exit(0); /* not reached */
}

static void check_overflow_report(const char *technique)
{
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        child_overflow(fds[1], technique);
    }
    close(fds[1]);
    char err[4096];
    size_t got = 0;
    ssize_t n;
    while (got + 1 < sizeof(err) && (n = read(fds[0], err + got, sizeof(err) - 1 - got)) > 0)
        got += (size_t)n;
    err[got] = '\0';
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
    if (!strstr(err, "stack overflow in tasklet"))
        BB_FAIL_AT("[%s] no report naming the tasklet: %s", technique, err);
}

/* A tasklet and then a ULT on `pool`; `yield`: the caller's own ES serves
 * the pool, so it yields to let its scheduler run them. */
static void run_pair(ABT_pool pool, int yield)
{
    int got_task = 0, got_ult = 0;
    ABT_task task;
    ABT_thread ult;
    CHECK_OK(ABT_task_create(pool, tasklet_fn, &got_task, &task));
    CHECK_OK(ABT_thread_create(pool, ult_fn, &got_ult, ABT_THREAD_ATTR_NULL, &ult));
    if (yield)
        CHECK_OK(ABT_thread_yield());
    CHECK_OK(ABT_task_free(&task));
    CHECK_OK(ABT_thread_free(&ult));
    CHECK_EQ(got_task, DEPTH);
    CHECK_EQ(got_ult, 1);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    for (int t = 0; t < TQ_NUM; t++) {
        tq_init(t);
        ABT_xstream self, es;
        ABT_pool pool0, pool1;
        CHECK_OK(ABT_xstream_self(&self));
        CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool0));
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
        CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

        run_pair(pool0, 1); /* the primary ES's main scheduler */
        run_pair(pool1, 0); /* a secondary ES's */

        /* The secondary ES's predefined scheduler replaced by the user's. */
        ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = one_pool_sched_run};
        ABT_pool upool;
        ABT_sched usched;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &upool));
        CHECK_OK(ABT_sched_create(&def, 1, &upool, ABT_SCHED_CONFIG_NULL, &usched));
        ABT_thread replacer;
        CHECK_OK(ABT_thread_create(pool1, replace_main_sched_here, &usched, ABT_THREAD_ATTR_NULL,
                                   &replacer));
        CHECK_OK(ABT_thread_free(&replacer));
        tq_collect_ult_failures();
        run_pair(upool, 0);

        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_sched_free(&usched)); /* not automatic: the user's again */
        CHECK_OK(ABT_finalize());
    }
    /* Under a sanitizer or valgrind the scheduler keeps ABT_SCHED_STACKSIZE
     * and runs tasklets on it, as under the other techniques (xstream.c). */
    if (!BB_TEST_UNDER_ASAN && !bb_test_is_slow_run()) {
        check_overflow_report("sc");
        check_overflow_report("full");
    }
    BB_TEST_END();
}
