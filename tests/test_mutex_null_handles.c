/* Every mutex routine given ABT_MUTEX_NULL returns ABT_ERR_INV_MUTEX, and so
 * do the cond routines given a NULL mutex (after the cond checks). The lock
 * family needs no ABT_init, so it reports ABT_ERR_INV_MUTEX before ABT_init
 * too, while get_attr and free report ABT_ERR_UNINITIALIZED first. */
#include "bb_test.h"
#include <time.h>

static void check_lock_family(void)
{
    CHECK_ERR(ABT_mutex_lock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_lock_low(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_lock_high(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_trylock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_spinlock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock_se(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_unlock_de(ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    static ABT_cond_memory cmem = ABT_COND_INITIALIZER;
    ABT_cond sc = ABT_COND_MEMORY_GET_HANDLE(&cmem);
    struct timespec ts = {0, 0};
    ABT_mutex m = ABT_MUTEX_NULL;
    ABT_mutex_attr attr;

    check_lock_family();
    CHECK_ERR(ABT_cond_wait(sc, ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(sc, ABT_MUTEX_NULL, &ts), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_get_attr(ABT_MUTEX_NULL, &attr), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_mutex_free(&m), ABT_ERR_UNINITIALIZED);

    CHECK_OK(ABT_init(0, NULL));
    check_lock_family();
    CHECK_ERR(ABT_mutex_get_attr(ABT_MUTEX_NULL, &attr), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_free(&m), ABT_ERR_INV_MUTEX);
    ABT_cond c;
    CHECK_OK(ABT_cond_create(&c));
    CHECK_ERR(ABT_cond_wait(c, ABT_MUTEX_NULL), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_cond_timedwait(c, ABT_MUTEX_NULL, &ts), ABT_ERR_INV_MUTEX);
    CHECK_OK(ABT_cond_free(&c));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
