/* A key created after another was freed (so it may reuse the freed key's
 * internal slot) reads NULL in units that had a value for the old key: a
 * terminated ULT (through ABT_thread_get_specific), a ULT still running
 * (through ABT_self_get_specific), a tasklet and the primary ULT. Repeated
 * over many free/create cycles. Setting the new key then works normally. */
#include "bb_test.h"
#include <stdatomic.h>

#define CYCLES 50

static ABT_key old_key, new_key;
static atomic_int phase, bad, seen_cycles, runner_ready;
static int x;

static void setter(void *arg)
{
    ABT_self_set_specific(old_key, arg);
}

/* Sets the old key, then in each cycle waits for the main ULT to replace it
 * and checks that the new key reads NULL, then sets the new key (which is
 * the old one of the next cycle). */
static void runner(void *arg)
{
    (void)arg;
    ABT_self_set_specific(old_key, &x);
    atomic_store(&runner_ready, 1);
    for (int c = 0; c < CYCLES; c++) {
        while (atomic_load(&phase) != 2 * c + 1)
            ABT_thread_yield();
        void *v = &x;
        if (ABT_self_get_specific(new_key, &v) != ABT_SUCCESS || v != NULL)
            atomic_fetch_add(&bad, 1);
        if (ABT_self_set_specific(new_key, &x) != ABT_SUCCESS)
            atomic_fetch_add(&bad, 1);
        if (ABT_self_get_specific(new_key, &v) != ABT_SUCCESS || v != &x)
            atomic_fetch_add(&bad, 1);
        atomic_fetch_add(&seen_cycles, 1);
        atomic_store(&phase, 2 * c + 2);
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es1;
    ABT_pool pool1;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_xstream_get_main_pools(es1, 1, &pool1));
    CHECK_OK(ABT_key_create(NULL, &old_key));

    ABT_thread r;
    CHECK_OK(ABT_thread_create(pool1, runner, NULL, ABT_THREAD_ATTR_NULL, &r));
    for (int c = 0; c < CYCLES; c++) {
        ABT_thread t;
        ABT_task k;
        CHECK_OK(ABT_thread_create(pool1, setter, &x, ABT_THREAD_ATTR_NULL, &t));
        CHECK_OK(ABT_task_create(pool1, setter, &x, &k));
        CHECK_OK(ABT_thread_join(t));
        CHECK_OK(ABT_task_join(k));
        CHECK_OK(ABT_self_set_specific(old_key, &x));
        /* the runner has set old_key by now (cycle 0: wait for it) */
        while (!atomic_load(&runner_ready))
            usleep(50);

        CHECK_OK(ABT_key_free(&old_key));
        CHECK_OK(ABT_key_create(NULL, &new_key));
        void *v = &x;
        CHECK_OK(ABT_thread_get_specific(t, new_key, &v));
        CHECK(v == NULL);
        v = &x;
        CHECK_OK(ABT_task_get_specific(k, new_key, &v));
        CHECK(v == NULL);
        v = &x;
        CHECK_OK(ABT_self_get_specific(new_key, &v));
        CHECK(v == NULL);
        CHECK_OK(ABT_self_set_specific(new_key, &x));
        CHECK_OK(ABT_self_get_specific(new_key, &v));
        CHECK(v == &x);

        atomic_store(&phase, 2 * c + 1);
        while (atomic_load(&phase) != 2 * c + 2)
            usleep(50);
        CHECK_OK(ABT_thread_free(&t));
        CHECK_OK(ABT_task_free(&k));
        old_key = new_key;
    }
    CHECK_OK(ABT_thread_free(&r));
    CHECK_EQ(atomic_load(&seen_cycles), CYCLES);
    CHECK_EQ(atomic_load(&bad), 0);
    CHECK_OK(ABT_key_free(&old_key));
    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
