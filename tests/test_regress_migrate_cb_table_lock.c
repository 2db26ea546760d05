/* A scheduler's get_migr_pool that calls into the runtime, during
 * ABT_thread_migrate (src/unit/migrate.c, count_move_elsewhere).
 *
 * ABT_thread_migrate looks for a target ES in the table of ESs, under the
 * table's lock, and used to call the target scheduler's get_migr_pool (the
 * user's code) with that lock held: a get_migr_pool that printed the unit
 * (ABT_info_print_thread) or the ESs (ABT_info_print_all_xstreams), both of
 * which take the lock, hung for ever. Argobots holds no lock there, and
 * ABT_thread_migrate_to_xstream / _to_sched never did.
 *
 * A secondary ES runs a user-defined scheduler whose get_migr_pool prints
 * the calling unit and every ES to /dev/null and returns its first pool; a
 * ULT of the primary ES is moved there by each of the three calls in turn,
 * runs there, and get_migr_pool was called once per move. */
#include "bb_test.h"
#include "sched_user_util.h"
#include <stdatomic.h>

static FILE *devnull;
static atomic_int n_cb, n_ran;
static ABT_xstream target;

static ABT_pool get_migr_pool(ABT_sched sched)
{
    atomic_fetch_add(&n_cb, 1);
    ABT_thread self = ABT_THREAD_NULL;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_OK(ABT_info_print_thread(devnull, self));
    CHECK_OK(ABT_info_print_all_xstreams(devnull));
    ABT_pool pool = ABT_POOL_NULL;
    CHECK_OK(ABT_sched_get_pools(sched, 1, 0, &pool));
    return pool;
}

static void moved(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_yield()); /* the move happens at the latest here */
    ABT_xstream es = ABT_XSTREAM_NULL;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK(es == target);
    atomic_fetch_add(&n_ran, 1);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    devnull = fopen("/dev/null", "w");
    CHECK(devnull != NULL);
    CHECK_OK(ABT_init(0, NULL));
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = one_pool_sched_run,
                         .get_migr_pool = get_migr_pool};
    ABT_pool pool;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create(&def, 1, &pool, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_OK(ABT_xstream_create(sched, &target));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    for (int how = 0; how < 3; how++) {
        ABT_thread t;
        CHECK_OK(ABT_thread_create(main_pool, moved, NULL, ABT_THREAD_ATTR_NULL, &t));
        if (how == 0)
            CHECK_OK(ABT_thread_migrate(t));
        else if (how == 1)
            CHECK_OK(ABT_thread_migrate_to_xstream(t, target));
        else
            CHECK_OK(ABT_thread_migrate_to_sched(t, sched));
        CHECK_OK(ABT_thread_free(&t));
        CHECK_EQ(atomic_load(&n_cb), how + 1);
        CHECK_EQ(atomic_load(&n_ran), how + 1);
    }

    CHECK_OK(ABT_xstream_join(target));
    CHECK_OK(ABT_xstream_free(&target));
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    fclose(devnull);
    BB_TEST_END();
}
