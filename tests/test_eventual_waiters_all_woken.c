/* ABT_eventual_set wakes every waiter at once: ULTs on three ESs (two each),
 * the main ULT and two external pthreads all return from wait with the
 * address of the same buffer holding the value. Repeated with reset, the
 * setter alternating between a ULT on another ES, a tasklet and an external
 * pthread. */
#include "bb_test.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#define NES 3
#define PER_ES 2
#define NEXT 2
#define ROUNDS 6

static ABT_eventual ev;
static atomic_int woke, bad, ext_waiting;
static long expect;

static void check_value(void *v)
{
    if (!v || *(long *)v != expect)
        atomic_fetch_add(&bad, 1);
    atomic_fetch_add(&woke, 1);
}

static void ult_waiter(void *arg)
{
    (void)arg;
    void *v = NULL;
    CHECK_OK(ABT_eventual_wait(ev, &v));
    check_value(v);
}

static void *ext_waiter(void *arg)
{
    (void)arg;
    void *v = NULL;
    atomic_fetch_add(&ext_waiting, 1);
    CHECK_OK(ABT_eventual_wait(ev, &v));
    check_value(v);
    return NULL;
}

static void set_it(void *arg)
{
    (void)arg;
    long x = expect;
    CHECK_OK(ABT_eventual_set(ev, &x, sizeof(x)));
}

static void *ext_set_it(void *arg)
{
    set_it(arg);
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es[NES];
    ABT_pool pools[NES];
    CHECK_OK(ABT_xstream_self(&es[0]));
    for (int i = 1; i < NES; i++)
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es[i]));
    for (int i = 0; i < NES; i++)
        CHECK_OK(ABT_xstream_get_main_pools(es[i], 1, &pools[i]));
    CHECK_OK(ABT_eventual_create(sizeof(long), &ev));

    for (int r = 0; r < ROUNDS; r++) {
        expect = 1000 + r;
        atomic_store(&woke, 0);
        atomic_store(&ext_waiting, 0);
        ABT_thread ts[NES * PER_ES];
        for (int i = 0; i < NES * PER_ES; i++)
            CHECK_OK(ABT_thread_create(pools[i % NES], ult_waiter, NULL, ABT_THREAD_ATTR_NULL,
                                       &ts[i]));
        pthread_t th[NEXT];
        for (int i = 0; i < NEXT; i++)
            CHECK_EQ(pthread_create(&th[i], NULL, ext_waiter, NULL), 0);
        /* Let (most of) them get into the wait. */
        for (int i = 0; i < NES * PER_ES; i++) {
            ABT_thread_state st = ABT_THREAD_STATE_READY;
            while (st != ABT_THREAD_STATE_BLOCKED && st != ABT_THREAD_STATE_TERMINATED) {
                ABT_thread_yield();
                CHECK_OK(ABT_thread_get_state(ts[i], &st));
            }
            CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
        }
        while (atomic_load(&ext_waiting) < NEXT)
            ABT_thread_yield();
        usleep(5000);
        CHECK_EQ(atomic_load(&woke), 0);

        switch (r % 3) {
        case 0: {
            ABT_thread s;
            CHECK_OK(ABT_thread_create_on_xstream(es[1 + r % (NES - 1)], set_it, NULL,
                                                  ABT_THREAD_ATTR_NULL, &s));
            CHECK_OK(ABT_thread_free(&s));
            break;
        }
        case 1: {
            ABT_task s;
            CHECK_OK(ABT_task_create(pools[2], set_it, NULL, &s));
            CHECK_OK(ABT_task_free(&s));
            break;
        }
        default: {
            pthread_t s;
            CHECK_EQ(pthread_create(&s, NULL, ext_set_it, NULL), 0);
            CHECK_EQ(pthread_join(s, NULL), 0);
            break;
        }
        }
        void *v = NULL;
        CHECK_OK(ABT_eventual_wait(ev, &v)); /* the main ULT, already set */
        check_value(v);
        for (int i = 0; i < NES * PER_ES; i++)
            CHECK_OK(ABT_thread_free(&ts[i]));
        for (int i = 0; i < NEXT; i++)
            CHECK_EQ(pthread_join(th[i], NULL), 0);
        CHECK_EQ(atomic_load(&woke), NES * PER_ES + NEXT + 1);
        CHECK_EQ(atomic_load(&bad), 0);
        CHECK_OK(ABT_eventual_reset(ev));
    }

    CHECK_OK(ABT_eventual_free(&ev));
    for (int i = 1; i < NES; i++) {
        CHECK_OK(ABT_xstream_join(es[i]));
        CHECK_OK(ABT_xstream_free(&es[i]));
    }
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
