/*
 * Work waiting in the automatic pool of a terminated ES's automatic main
 * scheduler is not lost when that scheduler leaves the ES:
 *   - ABT_xstream_set_main_sched on the terminated ES (the schedulers are
 *     swapped, the old one would be freed),
 *   - ABT_xstream_free of the terminated ES (its scheduler would be freed),
 *   - ABT_xstream_cancel, which leaves units in the pools, then free.
 * In each case the old scheduler goes back to the user with its pool and
 * the units in it, as if it were not automatic: ABT_sched_free refuses it
 * while the pool holds work, another scheduler given the pool runs the
 * units, and then the old scheduler can be freed.
 *
 * Regression: the old scheduler was freed with its pool, and the units in
 * it with them: a later ABT_thread_free of one of them waited for ever
 * (and would have read freed memory).
 */
#include "bb_test.h"
#include <stdatomic.h>

static atomic_int ran;

static void body(void *arg)
{
    (void)arg;
    atomic_fetch_add(&ran, 1);
}

/* A secondary ES with the default (automatic) scheduler, terminated: its
 * scheduler and pool, and a ULT waiting in that pool. */
static void terminated_es_with_work(ABT_xstream *es, ABT_sched *sched, ABT_pool *pool,
                                    ABT_thread *ult)
{
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, es));
    CHECK_OK(ABT_xstream_join(*es));
    CHECK_OK(ABT_xstream_get_main_sched(*es, sched));
    CHECK_OK(ABT_xstream_get_main_pools(*es, 1, pool));
    CHECK_OK(ABT_thread_create(*pool, body, NULL, ABT_THREAD_ATTR_NULL, ult));
}

/* `sched` left its ES with `ult` in `pool`: it is the user's now, `ult`
 * still waits, and an ES given `pool` runs it. */
static void check_kept_and_run(ABT_sched sched, ABT_pool pool, ABT_thread ult)
{
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 1);
    ABT_sched kept = sched;
    CHECK_ERR(ABT_sched_free(&kept), ABT_ERR_SCHED); /* its pool still holds `ult` */
    CHECK_EQ(atomic_load(&ran), 0);

    ABT_xstream runner;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL,
                                      &runner));
    CHECK_OK(ABT_thread_free(&ult));
    CHECK_EQ(atomic_load(&ran), 1);
    CHECK_OK(ABT_xstream_free(&runner));
    CHECK_OK(ABT_sched_free(&kept)); /* drained: the pool goes with it */
    atomic_store(&ran, 0);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es;
    ABT_sched old;
    ABT_pool pool;
    ABT_thread ult;

    /* A new main scheduler for the terminated ES. */
    terminated_es_with_work(&es, &old, &pool, &ult);
    CHECK_OK(ABT_xstream_set_main_sched(es, ABT_SCHED_NULL));
    ABT_sched now;
    CHECK_OK(ABT_xstream_get_main_sched(es, &now));
    CHECK(now != old);
    check_kept_and_run(old, pool, ult);
    CHECK_OK(ABT_xstream_revive(es)); /* the new scheduler runs */
    CHECK_OK(ABT_xstream_free(&es));

    /* The terminated ES freed. */
    terminated_es_with_work(&es, &old, &pool, &ult);
    CHECK_OK(ABT_xstream_free(&es));
    check_kept_and_run(old, pool, ult);

    /* A cancelled ES freed: what it left in its pool stays there. */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_sched(es, &old));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    CHECK_OK(ABT_xstream_cancel(es));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &ult));
    CHECK_OK(ABT_xstream_free(&es));
    check_kept_and_run(old, pool, ult);

    /* Without work the automatic scheduler still goes with its ES: a kept
     * one would show as a leak under LeakSanitizer. */
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_set_main_sched(es, ABT_SCHED_NULL));
    CHECK_OK(ABT_xstream_free(&es));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
