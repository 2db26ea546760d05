/* A move that cannot happen yet (the ULT is blocked, or running) counts in
 * its target pool as a unit to come, as a blocked unit counts in its own:
 * ABT_pool_get_total_size shows it, and the target ES's scheduler does not
 * stop before the unit has arrived. So freeing the target ES waits for a
 * blocked ULT headed there, which then runs there; a later request takes
 * the count to its own target; a ULT that ends before it moves leaves no
 * count behind, and the target ES can still be joined.
 *
 * The old code kept no such count: ABT_xstream_free of the target went on
 * at once and freed its pool, into which the woken ULT was then pushed
 * (use after free; in a release build the ULT was lost and its free hung). */
#include "bb_test.h"

#include <pthread.h>

static ABT_eventual wake_up;
static ABT_xstream ran_on; /* where the ULT ran after its wait */
static int go;             /* the running ULT's cue to end */

static void blocked_body(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_eventual_wait(wake_up, NULL));
    CHECK_OK(ABT_self_get_xstream(&ran_on));
}

static void running_body(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
        ; /* runs without yielding, so a move stays pending until it ends */
}

static size_t total_size(ABT_pool pool)
{
    size_t n;
    CHECK_OK(ABT_pool_get_total_size(pool, &n));
    return n;
}

static ABT_pool main_pool(ABT_xstream es)
{
    ABT_pool p;
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &p));
    return p;
}

static void wait_for_state(ABT_thread t, ABT_thread_state want)
{
    ABT_thread_state state;
    do {
        CHECK_OK(ABT_thread_get_state(t, &state));
    } while (state != want);
}

/* An external thread ends the wait later, while the caller frees the target. */
static void *set_later(void *arg)
{
    (void)arg;
    usleep(100000);
    CHECK_OK(ABT_eventual_set(wake_up, NULL, 0));
    return NULL;
}

static ABT_thread start_blocked(ABT_xstream home)
{
    ran_on = ABT_XSTREAM_NULL;
    CHECK_OK(ABT_eventual_create(0, &wake_up));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool(home), blocked_body, NULL, ABT_THREAD_ATTR_NULL, &t));
    wait_for_state(t, ABT_THREAD_STATE_BLOCKED);
    return t;
}

/* A blocked ULT headed to `b`: freeing `b` waits until it has run there. */
static void free_target_of_blocked(ABT_xstream a)
{
    ABT_xstream b, b_seen;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &b));
    b_seen = b;
    ABT_thread t = start_blocked(a);
    CHECK_OK(ABT_thread_migrate_to_xstream(t, b));
    CHECK_EQ(total_size(main_pool(b)), 1);

    pthread_t setter;
    CHECK_EQ(pthread_create(&setter, NULL, set_later, NULL), 0);
    CHECK_OK(ABT_xstream_free(&b)); /* waits for the ULT */
    CHECK(ran_on == b_seen);
    CHECK_EQ(pthread_join(setter, NULL), 0);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_eventual_free(&wake_up));
}

/* A second request replaces the first: the count moves with it. */
static void replaced_request(ABT_xstream a)
{
    ABT_xstream b, c;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &b));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &c));
    ABT_thread t = start_blocked(a);
    CHECK_OK(ABT_thread_migrate_to_xstream(t, b));
    CHECK_OK(ABT_thread_migrate_to_xstream(t, c));
    CHECK_EQ(total_size(main_pool(b)), 0);
    CHECK_EQ(total_size(main_pool(c)), 1);
    CHECK_OK(ABT_xstream_free(&b)); /* nothing to wait for */

    CHECK_OK(ABT_eventual_set(wake_up, NULL, 0));
    CHECK_OK(ABT_thread_free(&t));
    CHECK(ran_on == c);
    CHECK_EQ(total_size(main_pool(c)), 0);
    CHECK_OK(ABT_xstream_free(&c));
    CHECK_OK(ABT_eventual_free(&wake_up));
}

/* A running ULT that ends before it yields never moves: the target stops
 * counting it, and joining the target returns. */
static void ends_before_moving(ABT_xstream a)
{
    ABT_xstream b;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &b));
    __atomic_store_n(&go, 0, __ATOMIC_RELEASE);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool(a), running_body, NULL, ABT_THREAD_ATTR_NULL, &t));
    wait_for_state(t, ABT_THREAD_STATE_RUNNING);
    CHECK_OK(ABT_thread_migrate_to_xstream(t, b));
    CHECK_EQ(total_size(main_pool(b)), 1);
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    CHECK_OK(ABT_thread_join(t));
    CHECK_EQ(total_size(main_pool(b)), 0);
    CHECK_OK(ABT_xstream_join(b)); /* would wait for ever on a count left behind */
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_xstream_free(&b));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream a;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &a));
    free_target_of_blocked(a);
    replaced_request(a);
    ends_before_moving(a);
    CHECK_OK(ABT_xstream_free(&a));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
