/* Static mutexes: ABT_MUTEX_INITIALIZER gives a free non-recursive mutex and
 * ABT_RECURSIVE_MUTEX_INITIALIZER a free recursive one, usable through
 * ABT_MUTEX_MEMORY_GET_HANDLE without any create; ABT_mutex_get_attr reports
 * their kind (and it shows: the holder's trylock nests the recursive one and
 * is ABT_ERR_MUTEX_LOCKED on the plain one). They exclude ULTs on two ESs
 * from each other (a counter per mutex updated under it), and keep working
 * after ABT_finalize. */
#include "bb_test.h"

#define NULTS 8
#define ITERS 2000

static ABT_mutex_memory plain_mem = ABT_MUTEX_INITIALIZER;
static ABT_mutex_memory rec_mem = ABT_RECURSIVE_MUTEX_INITIALIZER;
static long counter[2]; /* [0] under the recursive mutex, [1] under the plain one */
static int errors;

static void bump(void *arg)
{
    (void)arg;
    ABT_mutex plain = ABT_MUTEX_MEMORY_GET_HANDLE(&plain_mem);
    ABT_mutex rec = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);
    for (int i = 0; i < ITERS; i++) {
        ABT_mutex use = (i & 1) ? plain : rec;
        if (ABT_mutex_lock(use) != ABT_SUCCESS)
            errors++; /* only safe-ish: errors are not expected at all */
        if (use == rec && ABT_mutex_lock(rec) != ABT_SUCCESS) /* nested */
            errors++;
        long v = counter[i & 1];
        if ((i & 15) == 0)
            ABT_thread_yield();
        counter[i & 1] = v + 1;
        if (use == rec && ABT_mutex_unlock(rec) != ABT_SUCCESS)
            errors++;
        if (ABT_mutex_unlock(use) != ABT_SUCCESS)
            errors++;
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    ABT_mutex plain = ABT_MUTEX_MEMORY_GET_HANDLE(&plain_mem);
    ABT_mutex rec = ABT_MUTEX_MEMORY_GET_HANDLE(&rec_mem);
    CHECK(plain != ABT_MUTEX_NULL);
    CHECK(rec != ABT_MUTEX_NULL);

    CHECK_OK(ABT_init(0, NULL));

    ABT_mutex_attr attr;
    ABT_bool b = ABT_TRUE;
    CHECK_OK(ABT_mutex_get_attr(plain, &attr));
    CHECK_OK(ABT_mutex_attr_get_recursive(attr, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_mutex_attr_free(&attr));
    b = ABT_FALSE;
    CHECK_OK(ABT_mutex_get_attr(rec, &attr));
    CHECK_OK(ABT_mutex_attr_get_recursive(attr, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_mutex_attr_free(&attr));

    /* Kinds: the plain one refuses its holder's trylock, the recursive one
     * counts. */
    CHECK_OK(ABT_mutex_lock(plain));
    CHECK_ERR(ABT_mutex_trylock(plain), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_ERR(ABT_mutex_unlock(plain), ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_trylock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_ERR(ABT_mutex_unlock(rec), ABT_ERR_MUTEX);

    /* Mutual exclusion among ULTs on two ESs. */
    ABT_xstream es;
    ABT_pool pools[2];
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pools[0]));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));
    ABT_thread t[NULTS];
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_create(pools[i & 1], bump, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    for (int i = 0; i < NULTS; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_EQ(counter[0], (long)NULTS * ITERS / 2);
    CHECK_EQ(counter[1], (long)NULTS * ITERS / 2);
    CHECK_EQ(errors, 0);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());

    /* Still usable after finalize (lock/unlock need no initialization). */
    CHECK_OK(ABT_mutex_lock(plain));
    CHECK_ERR(ABT_mutex_trylock(plain), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    BB_TEST_END();
}
