/*
 * A ULT started by ABT_thread_create_to on one ES that moves to another ES
 * inside its function, and ends there: the runtime code that runs after the
 * function (run_child_first) reads the ES of the calling OS thread again.
 * Built with ThreadSanitizer, the compiler used to hand TSan the address of
 * that thread-local variable computed from the thread pointer of before the
 * call, i.e. the TLS of the first ES's OS thread; once that ES was freed
 * and a new ES's thread reused the memory, TSan reported a data race
 * between the stale read and the new thread's first write (bb_xstream_set_self).
 * Without TSan the test checks only that the units ran; under TSan any
 * report fails it (exit code 66).
 */
#include "bb_test.h"

#include <stdatomic.h>

static ABT_pool pool_a, pool_b;
static ABT_xstream es_b;
static atomic_int children_done;

static void child(void *arg)
{
    (void)arg;
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    /* Moves to ES B at its yield, into pool B, which only B serves. */
    CHECK_OK(ABT_thread_migrate_to_pool(self, pool_b));
    CHECK_OK(ABT_thread_yield());
    ABT_xstream me;
    ABT_bool on_b;
    CHECK_OK(ABT_self_get_xstream(&me));
    CHECK_OK(ABT_xstream_equal(me, es_b, &on_b));
    CHECK_EQ(on_b, ABT_TRUE);
    atomic_fetch_add(&children_done, 1); /* the rest of its end runs unsynchronized */
}

static void creator(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_create_to(pool_a, child, NULL, ABT_THREAD_ATTR_NULL, NULL));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    enum { ROUNDS = 20 };
    for (int r = 0; r < ROUNDS; r++) {
        ABT_xstream es_a;
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool_a));
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool_b));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool_a, ABT_SCHED_CONFIG_NULL, &es_a));
        CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool_b, ABT_SCHED_CONFIG_NULL, &es_b));
        CHECK_OK(ABT_thread_create(pool_a, creator, NULL, ABT_THREAD_ATTR_NULL, NULL));
        while (atomic_load(&children_done) < r + 1)
            CHECK_OK(ABT_thread_yield());
        /* ES A's thread ends; a new ES's thread may take its memory. */
        CHECK_OK(ABT_xstream_free(&es_a));
        ABT_xstream es_c;
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es_c));
        CHECK_OK(ABT_xstream_free(&es_c));
        CHECK_OK(ABT_xstream_free(&es_b));
        CHECK_OK(ABT_pool_free(&pool_a));
        CHECK_OK(ABT_pool_free(&pool_b));
    }
    CHECK_EQ(atomic_load(&children_done), ROUNDS);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
