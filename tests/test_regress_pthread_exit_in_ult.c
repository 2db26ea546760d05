/* A ULT on a secondary ES that calls pthread_exit ends the ES's OS thread:
 * glibc unwinds the ULT's stack, finds its end and jumps to the thread's
 * start. Nothing can run the ES's work after that. It used to end in
 * silence: the ULT stayed RUNNING for ever (its join waited for ever), the
 * ES's other units never ran, and ABT_xstream_free reported success. Now
 * the runtime says what happened and aborts.
 *
 * The program runs in a child process, whose own alarm turns a hang into
 * SIGALRM; the child must die of SIGABRT, with the message (exit 4: it went
 * on in silence). */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bb_test.h"

static void exits_thread(void *arg)
{
    (void)arg;
    pthread_exit(NULL);
}

static void child(void)
{
    alarm(10); /* the default action: a hang ends in SIGALRM */
    if (ABT_init(0, NULL) != ABT_SUCCESS)
        _exit(3);
    ABT_xstream es;
    ABT_pool pool;
    ABT_thread t;
    if (ABT_xstream_create(ABT_SCHED_NULL, &es) != ABT_SUCCESS ||
        ABT_xstream_get_main_pools(es, 1, &pool) != ABT_SUCCESS ||
        ABT_thread_create(pool, exits_thread, NULL, ABT_THREAD_ATTR_NULL, &t) != ABT_SUCCESS)
        _exit(3);
    ABT_xstream_free(&es);
    _exit(4); /* not reached: the runtime aborts when the ES's thread ends */
}

int main(void)
{
    BB_TEST_BEGIN(30);
    if (BB_TEST_UNDER_TSAN) {
        puts("skipped: ThreadSanitizer's pthread_exit stops the program itself on a ULT's "
             "fiber");
        return 77;
    }
    int err_pipe[2];
    CHECK_EQ(pipe(err_pipe), 0);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        dup2(err_pipe[1], STDERR_FILENO);
        close(err_pipe[0]);
        child();
    }
    close(err_pipe[1]);
    char out[1024] = {0};
    size_t len = 0;
    ssize_t n;
    while (len < sizeof(out) - 1 && (n = read(err_pipe[0], out + len, sizeof(out) - 1 - len)) > 0)
        len += (size_t)n;
    int status = 0;
    CHECK_EQ(waitpid(pid, &status, 0), pid);
    /* SIGABRT; under AddressSanitizer, which reports on the odd stack the
     * abort leaves it, the sanitizer's own exit status instead. */
    if (WIFSIGNALED(status) && WTERMSIG(status) != SIGABRT)
        BB_FAIL_AT("the child died of signal %d (%s), not SIGABRT", WTERMSIG(status),
                   WTERMSIG(status) == SIGALRM ? "it hung" : "?");
    if (WIFEXITED(status))
        CHECK(WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 4);
    CHECK(strstr(out, "ended inside a work unit") != NULL);
    BB_TEST_END();
}
