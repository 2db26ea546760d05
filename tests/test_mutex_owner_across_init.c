/* The OS thread that locked a mutex before ABT_init may unlock it after
 * ABT_init, when it runs as the primary ULT: a plain mutex stays locked
 * across ABT_init (it records no owner, so anybody may unlock it), and a
 * recursive one is owned by the primary ULT (the owner is the same thread).
 * Another ULT on that thread's ES is not the recursive one's owner: its lock
 * waits until the primary ULT unlocks. As the owner, the primary ULT may
 * also lock, trylock and spinlock it again (nesting) and wait on a condition
 * with it (which gives back every level). */
#include "bb_test.h"

static ABT_mutex_memory plain_mem = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory rec_mem = ABT_RECURSIVE_MUTEX_INITIALIZER;

static volatile int other_got_it;

static void lock_other(void *arg)
{
    ABT_mutex m = ABT_MUTEX_MEMORY_GET_HANDLE((ABT_mutex_memory *)arg);
    if (ABT_mutex_lock(m) == ABT_SUCCESS) {
        other_got_it = 1;
        ABT_mutex_unlock(m);
    }
}

static ABT_xstream bb_primary_es(void)
{
    ABT_xstream es;
    ABT_xstream_self(&es);
    return es;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    ABT_mutex plain = ABT_MUTEX_MEMORY_GET_HANDLE(&plain_mem);
    ABT_mutex rec = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);
    CHECK_OK(ABT_mutex_lock(plain));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_trylock(rec));
    CHECK_OK(ABT_mutex_spinlock(rec));
    ABT_cond cond;
    CHECK_OK(ABT_cond_create(&cond));
    struct timespec past = {0, 0};
    CHECK_ERR(ABT_cond_timedwait(cond, rec, &past), ABT_ERR_COND_TIMEDOUT);
    CHECK_OK(ABT_cond_free(&cond));
    for (int i = 0; i < 3; i++) /* the three levels above */
        CHECK_OK(ABT_mutex_unlock(rec));
    ABT_thread other;
    CHECK_OK(ABT_thread_create_on_xstream(bb_primary_es(), lock_other, &rec_mem, ABT_THREAD_ATTR_NULL,
                                          &other));
    for (int i = 0; i < 10; i++)
        CHECK_OK(ABT_thread_yield());
    CHECK_EQ(other_got_it, 0); /* the recursive mutex is the main thread's */
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_thread_free(&other));
    CHECK_EQ(other_got_it, 1);
    CHECK_OK(ABT_mutex_lock(plain)); /* now free: the primary ULT takes it */
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_ERR(ABT_mutex_unlock(plain), ABT_ERR_MUTEX);
    CHECK_OK(ABT_finalize());
    CHECK_OK(ABT_mutex_trylock(plain));
    CHECK_OK(ABT_mutex_unlock(plain));
    BB_TEST_END();
}
