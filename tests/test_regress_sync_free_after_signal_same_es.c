/* Regression (sync review, follow-up): the unit that signals a cond (or sets
 * an eventual) may free it at once even when the woken timed waiter is a
 * ULT of its own ES that has not run yet. The waiter ULT (primary ES's pool)
 * is BLOCKED in ABT_cond_timedwait / ABT_eventual_timedwait with a far
 * deadline; the primary ULT signals (or sets) and frees the object right
 * away: the free must return ABT_SUCCESS (it may let the waiter run first,
 * but must not wait for it while keeping the ES, where the waiter has to
 * run), and the waiter then returns ABT_SUCCESS. With one ES in the runtime
 * and with two. The same without a deadline (ABT_cond_wait,
 * ABT_eventual_wait) as a control. A hang is caught by the watchdog. */
#include "bb_test.h"
#include <stdatomic.h>
#include <time.h>

enum kind { COND, EVENTUAL };

static ABT_mutex mtx;
static ABT_cond cond;
static ABT_eventual ev;
static int timed;
static atomic_int wait_ret;

static void waiter(void *arg)
{
    enum kind kind = (enum kind)(long)arg;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += 10;
    int r;
    if (kind == COND) {
        ABT_mutex_lock(mtx);
        r = timed ? ABT_cond_timedwait(cond, mtx, &ts) : ABT_cond_wait(cond, mtx);
        ABT_mutex_unlock(mtx);
    } else {
        r = timed ? ABT_eventual_timedwait(ev, NULL, &ts) : ABT_eventual_wait(ev, NULL);
    }
    atomic_store(&wait_ret, r);
}

static void run_case(enum kind kind, int is_timed, ABT_pool pool)
{
    printf("%s%s\n", kind == COND ? "cond" : "eventual", is_timed ? ", timed" : "");
    timed = is_timed;
    atomic_store(&wait_ret, -1);
    if (kind == COND)
        CHECK_OK(ABT_cond_create(&cond));
    else
        CHECK_OK(ABT_eventual_create(0, &ev));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, waiter, (void *)(long)kind, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
        ABT_thread_yield();
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);

    if (kind == COND) {
        CHECK_OK(ABT_mutex_lock(mtx));
        CHECK_OK(ABT_cond_signal(cond));
        CHECK_OK(ABT_mutex_unlock(mtx));
        CHECK_OK(ABT_cond_free(&cond)); /* the waiter has not run yet */
        CHECK(cond == ABT_COND_NULL);
    } else {
        CHECK_OK(ABT_eventual_set(ev, NULL, 0));
        CHECK_OK(ABT_eventual_free(&ev));
        CHECK(ev == ABT_EVENTUAL_NULL);
    }
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(atomic_load(&wait_ret), ABT_SUCCESS);
}

static void all_cases(ABT_pool pool)
{
    run_case(COND, 0, pool);
    run_case(EVENTUAL, 0, pool);
    run_case(COND, 1, pool);
    run_case(EVENTUAL, 1, pool);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary, es;
    ABT_pool pool0;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool0));
    CHECK_OK(ABT_mutex_create(&mtx));

    printf("one ES:\n");
    all_cases(pool0);

    /* A second ES exists (it does not share the primary ES's pool). */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    printf("two ESs:\n");
    all_cases(pool0);
    CHECK_OK(ABT_xstream_free(&es));

    CHECK_OK(ABT_mutex_free(&mtx));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
