/* Regression (sync review): ABT_thread_resume takes only a ULT suspended by
 * ABT_self_suspend. On a ULT blocked in a mutex, a cond, an eventual, a
 * barrier or a join it returns ABT_ERR_THREAD and the ULT stays BLOCKED
 * until what it waits for wakes it (its wait then returns normally).
 * Hammered: a ULT repeatedly locks a mutex contended from the other ES and
 * then suspends itself, while another thread (an external pthread, then a
 * ULT on the other ES) calls ABT_thread_resume on it in a loop. Exactly one
 * resume per suspend must succeed, none while the ULT waits for the mutex
 * (a check-then-act on the state used to let a resume wake a mutex waiter),
 * and nothing may crash. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

static ABT_pool pool0, pool1;
static ABT_mutex mtx;
static ABT_cond cond;
static ABT_eventual ev;
static ABT_barrier bar;
static ABT_thread join_target;
static atomic_int done, wait_ret;

/* ---- part 1: one resume attempt per kind of wait ---------------------------- */

enum kind { MUTEX, COND, EVENTUAL, BARRIER, JOIN, NKINDS };
static const char *const kind_names[] = {"mutex", "cond", "eventual", "barrier", "join"};
static enum kind cur_kind;
static atomic_int cond_waiting;

static void suspender(void *arg)
{
    (void)arg;
    ABT_self_suspend();
}

static void blocked_body(void *arg)
{
    (void)arg;
    int r = -1;
    switch (cur_kind) {
    case MUTEX:
        r = ABT_mutex_lock(mtx);
        ABT_mutex_unlock(mtx);
        break;
    case COND:
        ABT_mutex_lock(mtx);
        atomic_store(&cond_waiting, 1);
        r = ABT_cond_wait(cond, mtx);
        ABT_mutex_unlock(mtx);
        break;
    case EVENTUAL:
        r = ABT_eventual_wait(ev, NULL);
        break;
    case BARRIER:
        r = ABT_barrier_wait(bar);
        break;
    case JOIN:
        r = ABT_thread_join(join_target);
        break;
    default:
        break;
    }
    atomic_store(&wait_ret, r);
    atomic_store(&done, 1);
}

static void wait_state(ABT_thread t, ABT_thread_state want)
{
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (int i = 0; i < 200000; i++) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == want || st == ABT_THREAD_STATE_TERMINATED)
            break;
        ABT_thread_yield();
        usleep(20);
    }
    CHECK_EQ(st, want);
}

static void one_kind(enum kind kind, ABT_pool pool)
{
    cur_kind = kind;
    atomic_store(&done, 0);
    atomic_store(&wait_ret, -1);
    atomic_store(&cond_waiting, 0);
    switch (kind) {
    case MUTEX:
        CHECK_OK(ABT_mutex_lock(mtx));
        break;
    case EVENTUAL:
        CHECK_OK(ABT_eventual_create(0, &ev));
        break;
    case BARRIER:
        CHECK_OK(ABT_barrier_create(2, &bar));
        break;
    case JOIN:
        CHECK_OK(ABT_thread_create(pool, suspender, NULL, ABT_THREAD_ATTR_NULL, &join_target));
        wait_state(join_target, ABT_THREAD_STATE_BLOCKED);
        break;
    default:
        break;
    }
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, blocked_body, NULL, ABT_THREAD_ATTR_NULL, &t));
    wait_state(t, ABT_THREAD_STATE_BLOCKED);

    for (int i = 0; i < 3; i++) {
        int r = ABT_thread_resume(t);
        if (r != ABT_ERR_THREAD)
            BB_FAIL_AT("%s: ABT_thread_resume on a waiter returned %d, expected ABT_ERR_THREAD",
                       kind_names[kind], r);
        for (int j = 0; j < 5; j++) {
            ABT_thread_yield();
            usleep(200);
        }
        ABT_thread_state st;
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st != ABT_THREAD_STATE_BLOCKED || atomic_load(&done))
            BB_FAIL_AT("%s: after a resume attempt the waiter is in state %d (done %d)",
                       kind_names[kind], (int)st, atomic_load(&done));
    }

    /* Now release it the proper way. */
    switch (kind) {
    case MUTEX:
        CHECK_OK(ABT_mutex_unlock(mtx));
        break;
    case COND:
        CHECK_OK(ABT_mutex_lock(mtx));
        CHECK_EQ(atomic_load(&cond_waiting), 1);
        CHECK_OK(ABT_cond_signal(cond));
        CHECK_OK(ABT_mutex_unlock(mtx));
        break;
    case EVENTUAL:
        CHECK_OK(ABT_eventual_set(ev, NULL, 0));
        break;
    case BARRIER:
        CHECK_OK(ABT_barrier_wait(bar));
        break;
    case JOIN:
        CHECK_OK(ABT_thread_resume(join_target)); /* really suspended: succeeds */
        break;
    default:
        break;
    }
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&done), 1);
    if (atomic_load(&wait_ret) != ABT_SUCCESS)
        BB_FAIL_AT("%s: the wait returned %d", kind_names[kind], atomic_load(&wait_ret));
    switch (kind) {
    case EVENTUAL:
        CHECK_OK(ABT_eventual_free(&ev));
        break;
    case BARRIER:
        CHECK_OK(ABT_barrier_free(&bar));
        break;
    case JOIN:
        CHECK_ERR(ABT_thread_resume(join_target), ABT_ERR_THREAD); /* terminated */
        CHECK_OK(ABT_thread_free(&join_target));
        break;
    default:
        break;
    }
}

/* ---- part 2: the hammer ------------------------------------------------------- */

#define ROUNDS 20000
#define LOCKS_PER_ROUND 30
#define TIME_LIMIT 1.0 /* seconds per run; the counts are checked however far it got */

static ABT_thread victim;
static atomic_int suspends, resumes, early_wakeups, stop_contender;
static atomic_long counter;

static void busy(void)
{
    for (volatile int j = 0; j < 100; j++) {
    }
}

static void victim_body(void *arg)
{
    (void)arg;
    double end = ABT_get_wtime() + TIME_LIMIT;
    for (int k = 1; k <= ROUNDS && ABT_get_wtime() < end; k++) {
        for (int i = 0; i < LOCKS_PER_ROUND; i++) {
            ABT_mutex_lock(mtx);
            counter++;
            busy();
            ABT_mutex_unlock(mtx);
        }
        atomic_store(&suspends, k);
        ABT_self_suspend();
        /* The resumer counts its success right after its call returns. */
        double give_up = ABT_get_wtime() + 1.0;
        while (atomic_load(&resumes) < k && ABT_get_wtime() < give_up)
            ABT_thread_yield();
        if (atomic_load(&resumes) < k)
            atomic_fetch_add(&early_wakeups, 1); /* woken without a resume */
    }
    atomic_store(&done, 1);
}

static void contender(void *arg)
{
    (void)arg;
    while (!atomic_load(&stop_contender)) {
        ABT_mutex_lock(mtx);
        counter++;
        busy();
        ABT_mutex_unlock(mtx);
        ABT_thread_yield(); /* the primary ULT and the ULT resumer share this ES */
    }
}

static atomic_int bad_resumes;

/* One attempt; a success must match a suspend that has not been resumed. */
static void try_resume(void)
{
    int r = ABT_thread_resume(victim);
    if (r == ABT_SUCCESS) {
        int n = atomic_fetch_add(&resumes, 1) + 1;
        if (n > atomic_load(&suspends))
            atomic_fetch_add(&bad_resumes, 1);
    } else if (r != ABT_ERR_THREAD) {
        atomic_fetch_add(&bad_resumes, 1);
    }
}

static void *ext_resumer(void *arg)
{
    (void)arg;
    while (!atomic_load(&done))
        try_resume();
    return NULL;
}

static void ult_resumer(void *arg)
{
    (void)arg;
    while (!atomic_load(&done)) {
        try_resume();
        ABT_thread_yield(); /* let the contender on this ES run too */
    }
}

static void hammer(int external)
{
    atomic_store(&done, 0);
    atomic_store(&suspends, 0);
    atomic_store(&resumes, 0);
    atomic_store(&early_wakeups, 0);
    atomic_store(&bad_resumes, 0);
    atomic_store(&stop_contender, 0);
    counter = 0;

    /* The victim on the second ES; the contender (and the ULT resumer) on
     * the primary ES, whose primary ULT waits in a join meanwhile. */
    ABT_thread c, r = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_create(pool1, victim_body, NULL, ABT_THREAD_ATTR_NULL, &victim));
    CHECK_OK(ABT_thread_create(pool0, contender, NULL, ABT_THREAD_ATTR_NULL, &c));
    pthread_t th;
    if (external)
        CHECK_EQ(pthread_create(&th, NULL, ext_resumer, NULL), 0);
    else
        CHECK_OK(ABT_thread_create(pool0, ult_resumer, NULL, ABT_THREAD_ATTR_NULL, &r));
    CHECK_OK(ABT_thread_join(victim));
    atomic_store(&stop_contender, 1);
    if (external)
        CHECK_EQ(pthread_join(th, NULL), 0);
    else
        CHECK_OK(ABT_thread_free(&r));
    CHECK_OK(ABT_thread_free(&c));
    CHECK_OK(ABT_thread_free(&victim));

    int s = atomic_load(&suspends), n = atomic_load(&resumes);
    printf("%s resumer: %d suspends, %d resumes, %ld locks\n", external ? "external" : "ULT", s,
           n, (long)counter);
    CHECK(s > 0);
    CHECK_EQ(n, s);
    CHECK_EQ(atomic_load(&bad_resumes), 0);
    CHECK_EQ(atomic_load(&early_wakeups), 0);
}

int main(void)
{
    BB_TEST_BEGIN(25);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_mutex_create(&mtx));
    CHECK_OK(ABT_cond_create(&cond));

    for (int k = 0; k < NKINDS; k++) {
        one_kind((enum kind)k, pool0);
        one_kind((enum kind)k, pool1);
    }

    hammer(1);
    hammer(0);

    CHECK_OK(ABT_cond_free(&cond));
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
