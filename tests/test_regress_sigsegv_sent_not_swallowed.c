/* Regression: a SIGSEGV sent to the process (kill, and the like) must have
 * its usual effect while bobbin's stack-overflow handler is installed.
 *
 * Between ABT_init and ABT_finalize, bobbin handles SIGSEGV to report guard
 * page hits, and passes other faults on to the previous disposition. For the
 * default one it restored SIG_DFL and returned, counting on the faulting
 * instruction to fault again; a SIGSEGV sent by kill has no such
 * instruction, so the first one was swallowed (the process went on) where
 * without bobbin it kills the process. One sent while the program ignores
 * SIGSEGV must stay ignored (and bobbin's handler stay in place).
 *
 * Each case runs in a child process. */
#include <sys/resource.h>
#include "bb_test.h"

static int run_child(int ignore)
{
    pid_t pid = fork();
    if (pid == 0) {
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        /* SIG_DFL explicitly: a sanitizer may have its own handler there. */
        signal(SIGSEGV, ignore ? SIG_IGN : SIG_DFL);
        if (ABT_init(0, NULL) != ABT_SUCCESS)
            _exit(2);
        kill(getpid(), SIGSEGV);
        if (ignore)
            kill(getpid(), SIGSEGV); /* still ignored */
        _exit(ignore ? 0 : 3); /* not reached by default: killed above */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    int status = run_child(0);
    if (WIFEXITED(status))
        BB_FAIL_AT("default disposition: the child went on and exited with %d (the "
                   "SIGSEGV was swallowed)", WEXITSTATUS(status));
    else
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
    status = run_child(1);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    BB_TEST_END();
}
