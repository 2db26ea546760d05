/* Stack overflow diagnostics: see bb_overflow.h. */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bb_arch_signal.h"
#include "bb_overflow.h"
#include "bb_runtime.h"
#include "bb_unit.h"
#include "bb_xstream.h"

enum { ALTSTACK_SIZE = 64 * 1024 };

static struct sigaction previous;
static bool installed;
static __thread void *own_altstack; /* set if bobbin gave this thread its altstack */

/* ---- async-signal-safe output --------------------------------------------------------- */

static void put(const char *s)
{
    ssize_t unused = write(STDERR_FILENO, s, strlen(s));
    (void)unused;
}

static void put_number(uint64_t v, unsigned base)
{
    char text[24];
    int i = (int)sizeof(text) - 1;
    text[i] = '\0';
    do {
        text[--i] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v && i > 0);
    if (base == 16)
        put("0x");
    put(text + i);
}

/* ---- the handler ------------------------------------------------------------------ */

static bool hits_guard(const bb_unit *u, const char *addr)
{
    long page = sysconf(_SC_PAGESIZE);
    const char *low = u->stack;
    return ((u->flags | u->lent_stack) & BB_UNIT_GUARDED_STACK) && low && addr >= low - page &&
           addr < low;
}

/* A scheduler that lends its stack (sc, auto) has none while it does
 * (switch.c, begin_lending), yet code runs on it: key destructors of
 * unnamed units, tool callbacks. A fault just below the interrupted stack
 * pointer is then taken for an overflow of that stack. */
static bool overflows_lent_stack(const bb_unit *u, const char *addr, const void *uctx)
{
    uintptr_t sp = bb_arch_signal_sp(uctx);
    uintptr_t a = (uintptr_t)addr;
    return (u->flags & BB_UNIT_SCHED) && !u->stack && sp && a < sp + 256 && a + 65536 > sp;
}

/* The big stack of `es` (bb_xstream_big_stack), on which the tasklets of a
 * scheduler with a small stack run, and a user-defined main scheduler that
 * replaced one. */
static bool hits_big_stack_guard(const bb_xstream *es, const char *addr)
{
    long page = sysconf(_SC_PAGESIZE);
    const char *low = es->big_stack;
    return (es->big_stack_flags & BB_UNIT_GUARDED_STACK) && low && addr >= low - page &&
           addr < low;
}

/* `u`, running on the stack at `stack` of `size` bytes, overflowed it. */
static void report(bb_unit *u, const void *stack, size_t size)
{
    put(!bb_unit_is_ult(u)            ? "bobbin: stack overflow in tasklet "
        : (u->flags & BB_UNIT_SCHED) ? "bobbin: stack overflow in scheduler ULT "
                                     : "bobbin: stack overflow in ULT ");
    put_number(bb_unit_get_id(u), 10);
    put(" (function ");
    put_number((uintptr_t)u->func, 16);
    Dl_info info; /* best effort: the loader's lock may be held */
    if (u->func && dladdr((void *)(uintptr_t)u->func, &info) && info.dli_sname) {
        put(" ");
        put(info.dli_sname);
    }
    put(", stack ");
    put_number((uintptr_t)stack, 16);
    put(", ");
    put_number(size, 10);
    put(" bytes): it ran into its guard page; aborting\n");
}

/* A SIGSEGV that no fault caused: sent by kill, tgkill, sigqueue ... */
static bool was_sent(const siginfo_t *info)
{
    return info->si_code <= 0;
}

/* Set once the previous handler, installed with SA_RESETHAND, has run:
 * the kernel would have reset it to the default action on that delivery. */
static int previous_spent;

/* The previous disposition, as the kernel would see it now. */
static struct sigaction previous_now(void)
{
    struct sigaction now = previous;
    if ((now.sa_flags & SA_RESETHAND) && __atomic_load_n(&previous_spent, __ATOMIC_ACQUIRE)) {
        now.sa_handler = SIG_DFL;
        now.sa_flags = 0;
    }
    return now;
}

/* Run the previous handler `h` as the kernel would have delivered the
 * signal to it: with its sa_mask blocked and `sig` too unless SA_NODEFER
 * (pass_on has spent an SA_RESETHAND one already). Our own handler's mask
 * (SIGSEGV blocked) is in force on entry; the kernel restores the
 * interrupted mask when our handler returns, and so do we on the way out,
 * for the code that follows. */
static void call_previous(const struct sigaction *h, int sig, siginfo_t *info, void *uctx)
{
    sigset_t block = h->sa_mask, entry;
    pthread_sigmask(SIG_BLOCK, &block, &entry);
    if (h->sa_flags & SA_NODEFER) {
        sigset_t just_sig;
        sigemptyset(&just_sig);
        sigaddset(&just_sig, sig);
        if (!sigismember(&h->sa_mask, sig))
            pthread_sigmask(SIG_UNBLOCK, &just_sig, NULL);
    }
    if (h->sa_flags & SA_SIGINFO)
        h->sa_sigaction(sig, info, uctx);
    else
        h->sa_handler(sig);
    pthread_sigmask(SIG_SETMASK, &entry, NULL);
}

/* sa_handler and sa_sigaction share one word, from which the kernel reads
 * SIG_DFL and SIG_IGN whatever SA_SIGINFO says: SIG_IGN with SA_SIGINFO is
 * no function at address 1 but an ignored signal. */
static bool is_function(const struct sigaction *h)
{
    return h->sa_handler != SIG_DFL && h->sa_handler != SIG_IGN;
}

static void pass_on(int sig, siginfo_t *info, void *uctx)
{
    struct sigaction h = previous_now();
    /* A one-shot handler: the first fault to get here takes it (one
     * exchange, so that two faults on two threads do not both run it);
     * later ones get the default action. */
    if (is_function(&h) && (h.sa_flags & SA_RESETHAND) &&
        __atomic_exchange_n(&previous_spent, 1, __ATOMIC_ACQ_REL))
        h = previous_now();
    if (is_function(&h)) {
        call_previous(&h, sig, info, uctx);
        return;
    }
    if (h.sa_handler == SIG_IGN && was_sent(info))
        return; /* ignored, as without us */
    /* Default action: restore it; the faulting instruction runs again and
     * the kernel kills the process with the usual core dump. A sent signal
     * has no instruction to run again: it is raised anew (blocked until
     * this handler returns), or it would be lost. */
    signal(sig, SIG_DFL);
    if (was_sent(info))
        raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
    bb_xstream *es = bb_self_xstream();
    bb_unit *u = es ? es->current : NULL;
    if (!u) {
        pass_on(sig, info, uctx);
        return;
    }
    if (hits_guard(u, info->si_addr) || overflows_lent_stack(u, info->si_addr, uctx))
        report(u, u->stack, u->stacksize);
    else if (hits_big_stack_guard(es, info->si_addr))
        report(u, es->big_stack, bb_rt.config.sched_stacksize);
    else if (!bb_unit_is_ult(u) && hits_guard(es->sched_unit, info->si_addr))
        report(u, es->sched_unit->stack, es->sched_unit->stacksize); /* the main loop's own */
    else {
        pass_on(sig, info, uctx);
        return;
    }
    signal(SIGABRT, SIG_DFL);
    abort();
}

/* ---- set-up ------------------------------------------------------------------------ */

void bb_overflow_install(void)
{
    struct sigaction ours;
    memset(&ours, 0, sizeof(ours));
    ours.sa_sigaction = on_fault;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&ours.sa_mask);
    __atomic_store_n(&previous_spent, 0, __ATOMIC_RELAXED);
    installed = sigaction(SIGSEGV, &ours, &previous) == 0;
}

void bb_overflow_uninstall(void)
{
    struct sigaction current;
    if (!installed || sigaction(SIGSEGV, NULL, &current) != 0)
        return;
    struct sigaction restored = previous_now();
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_fault)
        sigaction(SIGSEGV, &restored, NULL); /* unless somebody replaced ours */
    installed = false;
}

void bb_overflow_thread_enter(void)
{
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE))
        return; /* the program gave this thread one: keep it */
    void *mem = malloc(ALTSTACK_SIZE);
    if (!mem)
        return; /* no diagnostics on this thread, nothing worse */
    stack_t alt = {.ss_sp = mem, .ss_size = ALTSTACK_SIZE, .ss_flags = 0};
    if (sigaltstack(&alt, NULL) != 0) {
        free(mem);
        return;
    }
    own_altstack = mem;
}

void bb_overflow_thread_leave(void)
{
    if (!own_altstack)
        return;
    /* Only if it is still ours: the program may have set its own since
     * (the primary ES's thread lives on after ABT_finalize). */
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE) &&
        current.ss_sp == own_altstack) {
        stack_t off = {.ss_flags = SS_DISABLE};
        sigaltstack(&off, NULL);
    }
    free(own_altstack);
    own_altstack = NULL;
}
