/* Regression: a fault that is no stack overflow reaches the program's own
 * SIGSEGV handler as the kernel would have delivered it without bobbin.
 *
 * Between ABT_init and ABT_finalize, bobbin's handler is installed and passes
 * such faults on to the handler it replaced. It called that handler with its
 * own signal mask (SIGSEGV alone blocked) and ignored the handler's flags:
 * the handler's sa_mask was not blocked, SA_NODEFER did not unblock
 * SIGSEGV, and an SA_RESETHAND handler ran again on every later fault (and
 * was put back by ABT_finalize) instead of once.
 *
 * Each case runs in a child process, which faults on a page it protected,
 * from a ULT; its handler unprotects the page so the access succeeds when it
 * is retried. The child's exit status says what went wrong. */
#include <stdbool.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "bb_test.h"

enum { OK = 0, INIT_FAILED = 10, NOT_CALLED, MASK_NOT_BLOCKED, SEGV_BLOCKED, SEGV_NOT_BLOCKED,
       CALLED_AGAIN, NOT_RESET_AT_FINALIZE };

static char *page;
static long page_size;
static volatile sig_atomic_t calls;
static volatile sig_atomic_t usr1_blocked, segv_blocked;

static void note_mask(void)
{
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    usr1_blocked = sigismember(&now, SIGUSR1);
    segv_blocked = sigismember(&now, SIGSEGV);
}

static void on_segv(int sig)
{
    (void)sig;
    calls++;
    note_mask();
    mprotect(page, (size_t)page_size, PROT_READ | PROT_WRITE);
}

static void on_segv_info(int sig, siginfo_t *info, void *uctx)
{
    (void)info;
    (void)uctx;
    on_segv(sig);
}

static void touch(void *arg)
{
    (void)arg;
    *(volatile char *)page = 1;
}

/* Protect the page and touch it from a ULT of the primary ES. */
static void fault_in_ult(void)
{
    mprotect(page, (size_t)page_size, PROT_NONE);
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread t;
    if (ABT_self_get_xstream(&es) != ABT_SUCCESS || ABT_xstream_get_main_pools(es, 1, &pool) ||
        ABT_thread_create(pool, touch, NULL, ABT_THREAD_ATTR_NULL, &t) != ABT_SUCCESS ||
        ABT_thread_free(&t) != ABT_SUCCESS)
        _exit(INIT_FAILED);
}

enum which { WITH_MASK, WITH_NODEFER, RESETHAND_TWICE, RESETHAND_FINALIZE };

static int child(enum which which)
{
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    page_size = sysconf(_SC_PAGESIZE);
    page = mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                -1, 0);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    if (which == WITH_MASK) {
        sa.sa_sigaction = on_segv_info;
        sa.sa_flags = SA_SIGINFO;
        sigaddset(&sa.sa_mask, SIGUSR1);
    } else {
        sa.sa_handler = on_segv;
        sa.sa_flags = which == WITH_NODEFER ? SA_NODEFER : SA_RESETHAND;
    }
    if (page == MAP_FAILED || sigaction(SIGSEGV, &sa, NULL) != 0 ||
        ABT_init(0, NULL) != ABT_SUCCESS)
        return INIT_FAILED;
    fault_in_ult();
    if (calls != 1)
        return NOT_CALLED;
    switch (which) {
    case WITH_MASK:
        if (!usr1_blocked)
            return MASK_NOT_BLOCKED;
        if (!segv_blocked)
            return SEGV_NOT_BLOCKED;
        break;
    case WITH_NODEFER:
        if (segv_blocked)
            return SEGV_BLOCKED;
        break;
    case RESETHAND_TWICE:
        fault_in_ult(); /* the default action now: killed by SIGSEGV */
        return CALLED_AGAIN;
    case RESETHAND_FINALIZE: {
        ABT_finalize();
        struct sigaction now;
        sigaction(SIGSEGV, NULL, &now);
        if (!(now.sa_flags & SA_SIGINFO) && now.sa_handler == on_segv)
            return NOT_RESET_AT_FINALIZE;
        return OK;
    }
    }
    ABT_finalize();
    return OK;
}

static int run(enum which which)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(child(which));
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

static void expect_exit_ok(const char *what, int status)
{
    if (!WIFEXITED(status) || WEXITSTATUS(status) != OK)
        BB_FAIL_AT("%s: child %s %d", what, WIFEXITED(status) ? "exited with" : "killed by",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    expect_exit_ok("sa_mask", run(WITH_MASK));
    expect_exit_ok("SA_NODEFER", run(WITH_NODEFER));
    expect_exit_ok("SA_RESETHAND, then ABT_finalize", run(RESETHAND_FINALIZE));
    int status = run(RESETHAND_TWICE);
    if (!(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV))
        BB_FAIL_AT("SA_RESETHAND, second fault: child %s %d, not killed by SIGSEGV",
                   WIFEXITED(status) ? "exited with" : "killed by",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    BB_TEST_END();
}
