/* Regression (review finding on the user-pool unit map), made stronger by
 * mutation testing: the plain form of this test passed even
 * when ABT_finalize leaves the user-pool unit map alone (init.c,
 * release_globals without bb_unit_map_clear), in Release and under ASan,
 * because the next ABT_init's first descriptor chunk lands at the address of
 * the freed one, whose fresh descriptors look like no entry. Here the pages
 * of the freed descriptor are reserved (PROT_NONE) between the finalize and
 * the next init, when they are free: a lookup that walks the stale entry
 * then faults. Where they are still mapped (the allocator kept them), the
 * test checks only the answer.
 *
 * Scenario: a ULT created in a user pool P, popped and
 * never freed; finalize; init; P's old ABT_unit value names no work unit. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include "pool_user_util.h"

static up_state st;
static ABT_pool P;

static void never_runs(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    up_state_init(&st);
    ABT_pool_user_def def = up_new_def(1);
    ABT_pool_config cfg = up_config(&st, 0);
    CHECK_OK(ABT_pool_create(def, cfg, &P));
    CHECK_OK(ABT_pool_config_free(&cfg));
    CHECK_OK(ABT_pool_user_def_free(&def));

    ABT_thread t;
    CHECK_OK(ABT_thread_create(P, never_runs, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_get_unit(t, &unit));
    CHECK(unit != ABT_UNIT_NULL);
    ABT_thread found = ABT_THREAD_NULL;
    CHECK_OK(ABT_unit_get_thread(unit, &found));
    CHECK(found == t);

    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(P, &popped));
    CHECK(popped == t);
    CHECK_ERR(ABT_pool_free(&P), ABT_ERR_POOL); /* t still holds P's unit */
    CHECK_OK(ABT_finalize()); /* t is never freed: finalize releases it */

    long page = sysconf(_SC_PAGESIZE);
    void *at = (void *)((uintptr_t)t & ~(uintptr_t)(page - 1));
    void *guard = mmap(at, (size_t)page * 2, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (guard != at) {
        if (guard != MAP_FAILED)
            munmap(guard, (size_t)page * 2);
        guard = NULL;
        printf("descriptor pages still mapped: plain check only\n");
    }

    CHECK_OK(ABT_init(0, NULL));
    found = (ABT_thread)(void *)0x1;
    CHECK_ERR(ABT_unit_get_thread(unit, &found), ABT_ERR_INV_UNIT);
    CHECK(found == ABT_THREAD_NULL);
    CHECK_OK(ABT_finalize());
    if (guard)
        munmap(guard, (size_t)page * 2);
    free((up_unit *)unit); /* the test's own unit block: P never got it back */
    BB_TEST_END();
}
