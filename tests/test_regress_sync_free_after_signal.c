/* Regression (sync review): the unit that signals a cond (or sets an
 * eventual) may free it at once, while a timed waiter with a near deadline
 * is being woken, timing out, or both at the same moment: the free succeeds
 * and the waiter, which may still be inside its timedwait, never touches the
 * freed object (a timed-out waiter used to take its node out under the
 * object's lock after the free). The waiter is a ULT on one ES or an
 * external pthread; the signaller runs on another ES; deadlines and delays
 * vary so that wake-up and expiry race. Looped many times; meant to be run
 * under the AddressSanitizer build too. (The same with the waiter ULT on the
 * signaller's own ES: test_regress_sync_free_after_signal_same_es.) */
#define _GNU_SOURCE
#include "bb_test.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>

#define ITERS 300

enum kind { COND, EVENTUAL };

static enum kind kind;
static int iter;
static ABT_mutex mtx;
static ABT_cond cur_cond;
static ABT_eventual cur_ev;
static ABT_thread waiter_ult;
static atomic_int arrived, returned, waiter_tid;
static atomic_int n_ok, n_timedout, n_bad;

static void delay_us(int us)
{
    double end = ABT_get_wtime() + us * 1e-6;
    while (ABT_get_wtime() < end) {
    }
}

static struct timespec near_deadline(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return bb_test_timespec_add_ns(ts, (iter % 5) * 40000L); /* 0 .. 160 us ahead */
}

static void count(int ret)
{
    if (ret == ABT_SUCCESS)
        atomic_fetch_add(&n_ok, 1);
    else if (ret == ABT_ERR_COND_TIMEDOUT)
        atomic_fetch_add(&n_timedout, 1);
    else
        atomic_fetch_add(&n_bad, 1);
}

static void waiter(void)
{
    struct timespec ts = near_deadline();
    if (kind == COND) {
        ABT_cond c = cur_cond;
        ABT_mutex_lock(mtx);
        atomic_store(&arrived, 1);
        int ret = ABT_cond_timedwait(c, mtx, &ts);
        ABT_mutex_unlock(mtx);
        count(ret);
    } else {
        ABT_eventual e = cur_ev;
        atomic_store(&arrived, 1);
        count(ABT_eventual_timedwait(e, NULL, &ts));
    }
    atomic_store(&returned, 1);
}

static void ult_waiter(void *arg)
{
    (void)arg;
    waiter();
}

static void *ext_waiter(void *arg)
{
    (void)arg;
    ABT_unit_type type;
    /* Touch the library's per-thread data before the timed part. */
    if (ABT_self_get_type(&type) != ABT_ERR_INV_XSTREAM)
        atomic_fetch_add(&n_bad, 1);
    atomic_store(&waiter_tid, (int)syscall(SYS_gettid));
    waiter();
    return NULL;
}

/* Is the external waiter asleep in a futex (inside its timed wait)? */
static int ext_sleeping(void)
{
    char path[64], buf[64];
    snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", atomic_load(&waiter_tid));
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long nr = -1;
    int ok = fgets(buf, sizeof(buf), f) && sscanf(buf, "%ld", &nr) == 1;
    fclose(f);
    return ok && nr == SYS_futex;
}

/* The eventual may be freed only once the waiter is inside its wait (or has
 * returned): a ULT shows BLOCKED, an external thread sleeps in a futex. */
static void wait_waiter_inside(int external)
{
    for (;;) {
        if (atomic_load(&returned))
            return;
        if (external) {
            if (ext_sleeping())
                return;
        } else {
            ABT_thread_state st;
            CHECK_OK(ABT_thread_get_state(waiter_ult, &st));
            if (st == ABT_THREAD_STATE_BLOCKED)
                return;
        }
        sched_yield();
    }
}

static void signaller(int external)
{
    while (!atomic_load(&arrived))
        sched_yield();
    int d = (iter % 7) * 25; /* 0 .. 150 us */
    if (kind == COND) {
        delay_us(d);
        /* Holding the mutex: the waiter is queued, or has timed out. */
        CHECK_OK(ABT_mutex_lock(mtx));
        if (iter % 2 == 0) {
            CHECK_OK(ABT_cond_signal(cur_cond));
            CHECK_OK(ABT_mutex_unlock(mtx));
        } else {
            CHECK_OK(ABT_mutex_unlock(mtx));
            CHECK_OK(ABT_cond_broadcast(cur_cond));
        }
        CHECK_OK(ABT_cond_free(&cur_cond));
        CHECK(cur_cond == ABT_COND_NULL);
    } else {
        wait_waiter_inside(external);
        delay_us(d);
        CHECK_OK(ABT_eventual_set(cur_ev, NULL, 0));
        CHECK_OK(ABT_eventual_free(&cur_ev));
        CHECK(cur_ev == ABT_EVENTUAL_NULL);
    }
}

static void begin_iter(void)
{
    atomic_store(&arrived, 0);
    atomic_store(&returned, 0);
    if (kind == COND)
        CHECK_OK(ABT_cond_create(&cur_cond));
    else
        CHECK_OK(ABT_eventual_create(0, &cur_ev));
}

static void run(enum kind k, int external, ABT_pool waiter_pool)
{
    kind = k;
    int before = atomic_load(&n_ok) + atomic_load(&n_timedout);
    for (iter = 0; iter < ITERS; iter++) {
        begin_iter();
        if (external) {
            pthread_t th;
            CHECK_EQ(pthread_create(&th, NULL, ext_waiter, NULL), 0);
            signaller(1);
            CHECK_EQ(pthread_join(th, NULL), 0);
        } else {
            CHECK_OK(ABT_thread_create(waiter_pool, ult_waiter, NULL, ABT_THREAD_ATTR_NULL,
                                       &waiter_ult));
            signaller(0);
            CHECK_OK(ABT_thread_free(&waiter_ult));
        }
    }
    CHECK_EQ(atomic_load(&n_ok) + atomic_load(&n_timedout) - before, ITERS);
    printf("%s, %s waiter: so far %d woken, %d timed out\n", k == COND ? "cond" : "eventual",
           external ? "external" : "ULT", atomic_load(&n_ok), atomic_load(&n_timedout));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
    CHECK_OK(ABT_mutex_create(&mtx));

    /* The signaller is the primary ULT (primary ES); the waiter a ULT of
     * the second ES, or an external thread. */
    run(COND, 0, pool1);
    run(EVENTUAL, 0, pool1);
    run(COND, 1, NULL);
    run(EVENTUAL, 1, NULL);

    CHECK_EQ(atomic_load(&n_bad), 0);
    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
