/* Before ABT_init (and after the last ABT_finalize) the ABT_pool_*,
 * ABT_sched_* and ABT_unit_* routines return ABT_ERR_UNINITIALIZED, and
 * creation routines (and ABT_unit_get_thread) clear their output handle
 * first. Handles that were never valid are used where the initialization
 * check comes before the handle's: the routines must not look at them. */
#include "bb_test.h"

#define POISON_POOL ((ABT_pool)(void *)0x1234)
#define POISON_SCHED ((ABT_sched)(void *)0x1234)
#define POISON_THREAD ((ABT_thread)(void *)0x1234)
#define POISON_UNIT ((ABT_unit)(void *)0x1234)

static void never_run(ABT_sched sched)
{
    (void)sched;
}

static void check_all(void)
{
    ABT_pool pool = POISON_POOL;
    CHECK_ERR(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &pool),
              ABT_ERR_UNINITIALIZED);
    CHECK(pool == ABT_POOL_NULL);
    ABT_pool null_pool = ABT_POOL_NULL;
    CHECK_ERR(ABT_pool_free(&null_pool), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_pool_push(ABT_POOL_NULL, ABT_UNIT_NULL), ABT_ERR_UNINITIALIZED);
    ABT_unit unit;
    CHECK_ERR(ABT_pool_pop(ABT_POOL_NULL, &unit), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_pool_remove(ABT_POOL_NULL, ABT_UNIT_NULL), ABT_ERR_UNINITIALIZED);
    size_t size;
    CHECK_ERR(ABT_pool_get_size(ABT_POOL_NULL, &size), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_pool_get_total_size(ABT_POOL_NULL, &size), ABT_ERR_UNINITIALIZED);
    ABT_pool_access access;
    CHECK_ERR(ABT_pool_get_access(ABT_POOL_NULL, &access), ABT_ERR_UNINITIALIZED);
    int id;
    CHECK_ERR(ABT_pool_get_id(ABT_POOL_NULL, &id), ABT_ERR_UNINITIALIZED);
    pool = POISON_POOL;
    CHECK_ERR(ABT_pool_create(ABT_POOL_USER_DEF_NULL, ABT_POOL_CONFIG_NULL, &pool),
              ABT_ERR_UNINITIALIZED);
    CHECK(pool == ABT_POOL_NULL);
    CHECK_ERR(ABT_pool_set_data(POISON_POOL, NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_pool_push_thread(POISON_POOL, POISON_THREAD), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_pool_push_thread_ex(POISON_POOL, POISON_THREAD, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_UNINITIALIZED);
    ABT_thread threads[1] = {POISON_THREAD};
    CHECK_ERR(ABT_pool_push_threads(POISON_POOL, threads, 1), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_pool_push_threads_ex(POISON_POOL, NULL, 1, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_pool_add_sched(POISON_POOL, POISON_SCHED), ABT_ERR_UNINITIALIZED);

    ABT_thread thread = POISON_THREAD;
    CHECK_ERR(ABT_unit_get_thread(POISON_UNIT, &thread), ABT_ERR_UNINITIALIZED);
    CHECK(thread == ABT_THREAD_NULL);
    CHECK_ERR(ABT_unit_set_associated_pool(POISON_UNIT, POISON_POOL), ABT_ERR_UNINITIALIZED);

    ABT_sched sched = POISON_SCHED;
    CHECK_ERR(ABT_sched_create_basic(ABT_SCHED_DEFAULT, 0, NULL, ABT_SCHED_CONFIG_NULL, &sched),
              ABT_ERR_UNINITIALIZED);
    CHECK(sched == ABT_SCHED_NULL);
    ABT_sched_def def = {.type = ABT_SCHED_TYPE_ULT, .run = never_run};
    sched = POISON_SCHED;
    CHECK_ERR(ABT_sched_create(&def, 0, NULL, ABT_SCHED_CONFIG_NULL, &sched),
              ABT_ERR_UNINITIALIZED);
    CHECK(sched == ABT_SCHED_NULL);
    ABT_sched null_sched = ABT_SCHED_NULL;
    CHECK_ERR(ABT_sched_free(&null_sched), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_sched_finish(ABT_SCHED_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_sched_exit(ABT_SCHED_NULL), ABT_ERR_UNINITIALIZED);
    ABT_bool stop;
    CHECK_ERR(ABT_sched_has_to_stop(ABT_SCHED_NULL, &stop), ABT_ERR_UNINITIALIZED);
    int n;
    CHECK_ERR(ABT_sched_get_num_pools(ABT_SCHED_NULL, &n), ABT_ERR_UNINITIALIZED);
    ABT_pool pools[1];
    CHECK_ERR(ABT_sched_get_pools(ABT_SCHED_NULL, 1, 0, pools), ABT_ERR_UNINITIALIZED);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_all();
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_finalize());
    check_all();
    BB_TEST_END();
}
