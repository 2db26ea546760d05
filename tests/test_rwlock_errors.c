/* ABT_rwlock_* error codes: before ABT_init and after ABT_finalize every
 * routine returns ABT_ERR_UNINITIALIZED (create also sets *out to NULL);
 * NULL out-pointers -> ABT_ERR_INV_ARG; NULL handles -> ABT_ERR_INV_RWLOCK;
 * unlock of a lock nobody holds -> ABT_ERR_RWLOCK; a failed free leaves the
 * handle alone, a successful one sets it to ABT_RWLOCK_NULL. */
#include "bb_test.h"
#include <stdint.h>

static void check_uninit(void)
{
    ABT_rwlock l = (ABT_rwlock)(intptr_t)0x10;
    CHECK_ERR(ABT_rwlock_create(&l), ABT_ERR_UNINITIALIZED);
    CHECK(l == ABT_RWLOCK_NULL);
    ABT_rwlock bogus = (ABT_rwlock)(intptr_t)0x10;
    CHECK_ERR(ABT_rwlock_rdlock(bogus), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_rwlock_wrlock(bogus), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_rwlock_unlock(bogus), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_rwlock_rdlock(ABT_RWLOCK_NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_rwlock_free(&bogus), ABT_ERR_UNINITIALIZED);
    CHECK(bogus == (ABT_rwlock)(intptr_t)0x10);
    l = ABT_RWLOCK_NULL;
    CHECK_ERR(ABT_rwlock_free(&l), ABT_ERR_UNINITIALIZED);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_uninit();
    CHECK_OK(ABT_init(0, NULL));

    CHECK_ERR(ABT_rwlock_create(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_rwlock_free(NULL), ABT_ERR_INV_ARG);
    ABT_rwlock l = ABT_RWLOCK_NULL;
    CHECK_ERR(ABT_rwlock_free(&l), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_rdlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_wrlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);
    CHECK_ERR(ABT_rwlock_unlock(ABT_RWLOCK_NULL), ABT_ERR_INV_RWLOCK);

    CHECK_OK(ABT_rwlock_create(&l));
    CHECK(l != ABT_RWLOCK_NULL);
    /* Nobody holds it. */
    CHECK_ERR(ABT_rwlock_unlock(l), ABT_ERR_RWLOCK);

    /* Read lock: once per rdlock, then nobody holds it again. */
    CHECK_OK(ABT_rwlock_rdlock(l));
    CHECK_OK(ABT_rwlock_rdlock(l));
    CHECK_OK(ABT_rwlock_unlock(l));
    CHECK_OK(ABT_rwlock_unlock(l));
    CHECK_ERR(ABT_rwlock_unlock(l), ABT_ERR_RWLOCK);

    /* Write lock: one unlock releases it. */
    CHECK_OK(ABT_rwlock_wrlock(l));
    CHECK_OK(ABT_rwlock_unlock(l));
    CHECK_ERR(ABT_rwlock_unlock(l), ABT_ERR_RWLOCK);

    /* Unlocked again: both kinds can take it. */
    CHECK_OK(ABT_rwlock_wrlock(l));
    CHECK_OK(ABT_rwlock_unlock(l));
    CHECK_OK(ABT_rwlock_rdlock(l));
    CHECK_OK(ABT_rwlock_unlock(l));

    /* A held lock may be freed (nobody waits). */
    CHECK_OK(ABT_rwlock_wrlock(l));
    CHECK_OK(ABT_rwlock_free(&l));
    CHECK(l == ABT_RWLOCK_NULL);

    CHECK_OK(ABT_rwlock_create(&l));
    CHECK_OK(ABT_rwlock_rdlock(l));
    CHECK_OK(ABT_rwlock_free(&l));
    CHECK(l == ABT_RWLOCK_NULL);

    CHECK_OK(ABT_finalize());
    check_uninit();
    BB_TEST_END();
}
