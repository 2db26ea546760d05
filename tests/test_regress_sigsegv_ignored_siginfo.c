/* Regression: a SIGSEGV sent (raise, kill) to a program that ignores it is
 * ignored with bobbin's handler installed too, however the program wrote
 * SIG_IGN: with SA_SIGINFO in sa_flags as well (the kernel reads SIG_IGN and
 * SIG_DFL from the handler word whatever the flags say; sa_handler and
 * sa_sigaction share it). Bobbin's handler took SIG_IGN with SA_SIGINFO for
 * a function and called address 1: the child died of SIGSEGV.
 *
 * The child raises SIGSEGV from the primary ULT and from a ULT of a second
 * ES, between ABT_init and ABT_finalize; it must exit normally. */
#include <string.h>
#include <sys/resource.h>
#include "bb_test.h"

static void raise_segv(void *arg)
{
    (void)arg;
    raise(SIGSEGV);
}

static int child(void)
{
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = SIG_IGN;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) != 0)
        return 10;
    raise(SIGSEGV); /* ignored without bobbin */
    if (ABT_init(0, NULL) != ABT_SUCCESS)
        return 11;
    raise_segv(NULL);
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread t;
    if (ABT_xstream_create(ABT_SCHED_NULL, &es) != ABT_SUCCESS ||
        ABT_xstream_get_main_pools(es, 1, &pool) != ABT_SUCCESS ||
        ABT_thread_create(pool, raise_segv, NULL, ABT_THREAD_ATTR_NULL, &t) != ABT_SUCCESS ||
        ABT_thread_free(&t) != ABT_SUCCESS || ABT_xstream_free(&es) != ABT_SUCCESS)
        return 12;
    return ABT_finalize() == ABT_SUCCESS ? 0 : 13;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0)
        _exit(child());
    int status = 0;
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        BB_FAIL_AT("child %s %d", WIFEXITED(status) ? "exited with" : "killed by",
                   WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    BB_TEST_END();
}
