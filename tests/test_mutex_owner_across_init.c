/* The OS thread that locked a mutex before ABT_init may unlock it after
 * ABT_init, when it runs as the primary ULT (the owner is the same thread).
 * The same holds for a recursive mutex, and relocking it there is still
 * refused (non-recursive) instead of waiting for itself forever. */
#include "bb_test.h"

static ABT_mutex_memory plain_mem = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory rec_mem = ABT_RECURSIVE_MUTEX_INITIALIZER;

int main(void)
{
    BB_TEST_BEGIN(10);
    ABT_mutex plain = ABT_MUTEX_MEMORY_GET_HANDLE(&plain_mem);
    ABT_mutex rec = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);
    CHECK_OK(ABT_mutex_lock(plain));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_init(0, NULL));
    CHECK_ERR(ABT_mutex_lock(plain), ABT_ERR_MUTEX); /* held by this thread already */
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_lock(plain)); /* now free: the primary ULT takes it */
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_ERR(ABT_mutex_unlock(plain), ABT_ERR_MUTEX);
    CHECK_OK(ABT_finalize());
    CHECK_OK(ABT_mutex_trylock(plain));
    CHECK_OK(ABT_mutex_unlock(plain));
    BB_TEST_END();
}
