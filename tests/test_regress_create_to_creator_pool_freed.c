/* A child-first child outlives its creator's pool. The creator C, running
 * on ES A with a migration to ES B's pool pending, calls
 * ABT_thread_create_to: C goes to B's pool (its request served as it
 * leaves), B runs it to its end, and B is freed with its automatic pool,
 * all while the child still runs on A. When the child then returns, it
 * may look whether to take C back only in a pool A's scheduler holds:
 * before the fix it read the freed pool's operations first: a
 * use-after-free that AddressSanitizer and valgrind report (a plain build
 * reads the freed memory unharmed), and that ThreadSanitizer reported as a
 * race with ABT_xstream_free. */
#include "bb_test.h"
#include <stdatomic.h>

static ABT_pool pool_a, pool_b;
static atomic_int creator_started, migration_asked, creator_left, es_b_freed;
static ABT_thread child;

static void child_body(void *arg)
{
    (void)arg;
    atomic_store(&creator_left, 1);
    while (!atomic_load(&es_b_freed))
        ; /* keeps ES A: the creator must finish elsewhere */
}

static void creator_body(void *arg)
{
    (void)arg;
    atomic_store(&creator_started, 1);
    while (!atomic_load(&migration_asked))
        ; /* running, so the migration stays pending */
    CHECK_OK(ABT_thread_create_to(pool_a, child_body, NULL, ABT_THREAD_ATTR_NULL, &child));
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es_a, es_b;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es_a));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es_b));
    CHECK_OK(ABT_xstream_get_main_pools(es_a, 1, &pool_a));
    CHECK_OK(ABT_xstream_get_main_pools(es_b, 1, &pool_b));

    ABT_thread creator;
    CHECK_OK(ABT_thread_create(pool_a, creator_body, NULL, ABT_THREAD_ATTR_NULL, &creator));
    while (!atomic_load(&creator_started))
        ; /* in its body: a request made before may be served as it starts */
    CHECK_OK(ABT_thread_migrate_to_pool(creator, pool_b));
    atomic_store(&migration_asked, 1);
    while (!atomic_load(&creator_left))
        CHECK_OK(ABT_thread_yield());

    CHECK_OK(ABT_thread_free(&creator)); /* it ends on ES B */
    CHECK_OK(ABT_xstream_join(es_b));
    CHECK_OK(ABT_xstream_free(&es_b)); /* and pool_b with it */
    atomic_store(&es_b_freed, 1);

    CHECK_OK(ABT_thread_free(&child));
    CHECK_OK(ABT_xstream_join(es_a));
    CHECK_OK(ABT_xstream_free(&es_a));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
