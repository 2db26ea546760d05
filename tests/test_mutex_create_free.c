/* ABT_mutex_create / create_with_attr / free: a NULL out-pointer is
 * ABT_ERR_INV_ARG; before ABT_init (and after ABT_finalize) they return
 * ABT_ERR_UNINITIALIZED and create sets *out = ABT_MUTEX_NULL first;
 * freeing ABT_MUTEX_NULL is ABT_ERR_INV_MUTEX; a locked mutex may be freed
 * and free sets the handle to ABT_MUTEX_NULL; create_with_attr with
 * ABT_MUTEX_ATTR_NULL gives a default (non-recursive) mutex: its holder's
 * trylock is ABT_ERR_MUTEX_LOCKED, not a nested lock. */
#include "bb_test.h"

int main(void)
{
    BB_TEST_BEGIN(10);
    ABT_mutex m = (ABT_mutex)(void *)0x1;

    /* Before ABT_init. */
    CHECK_ERR(ABT_mutex_create(&m), ABT_ERR_UNINITIALIZED);
    CHECK(m == ABT_MUTEX_NULL);
    m = (ABT_mutex)(void *)0x1;
    CHECK_ERR(ABT_mutex_create_with_attr(ABT_MUTEX_ATTR_NULL, &m), ABT_ERR_UNINITIALIZED);
    CHECK(m == ABT_MUTEX_NULL);
    CHECK_ERR(ABT_mutex_create(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_mutex_free(&m), ABT_ERR_UNINITIALIZED);

    CHECK_OK(ABT_init(0, NULL));

    CHECK_ERR(ABT_mutex_create(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_mutex_create_with_attr(ABT_MUTEX_ATTR_NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_mutex_free(NULL), ABT_ERR_INV_ARG);
    m = ABT_MUTEX_NULL;
    CHECK_ERR(ABT_mutex_free(&m), ABT_ERR_INV_MUTEX);

    /* Plain create / free. */
    CHECK_OK(ABT_mutex_create(&m));
    CHECK(m != ABT_MUTEX_NULL);
    CHECK_OK(ABT_mutex_free(&m));
    CHECK(m == ABT_MUTEX_NULL);
    CHECK_ERR(ABT_mutex_free(&m), ABT_ERR_INV_MUTEX);

    /* A locked mutex may be freed. */
    CHECK_OK(ABT_mutex_create(&m));
    CHECK_OK(ABT_mutex_lock(m));
    CHECK_OK(ABT_mutex_free(&m));
    CHECK(m == ABT_MUTEX_NULL);

    /* ABT_MUTEX_ATTR_NULL: the defaults, i.e. not recursive. */
    CHECK_OK(ABT_mutex_create_with_attr(ABT_MUTEX_ATTR_NULL, &m));
    CHECK(m != ABT_MUTEX_NULL);
    ABT_mutex_attr attr = ABT_MUTEX_ATTR_NULL;
    CHECK_OK(ABT_mutex_get_attr(m, &attr));
    ABT_bool rec = ABT_TRUE;
    CHECK_OK(ABT_mutex_attr_get_recursive(attr, &rec));
    CHECK_EQ(rec, ABT_FALSE);
    CHECK_OK(ABT_mutex_attr_free(&attr));
    CHECK_OK(ABT_mutex_lock(m));
    CHECK_ERR(ABT_mutex_trylock(m), ABT_ERR_MUTEX_LOCKED); /* not recursive: no nesting */
    CHECK_OK(ABT_mutex_unlock(m));
    CHECK_ERR(ABT_mutex_unlock(m), ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_free(&m));

    /* Two mutexes are distinct objects. */
    ABT_mutex a, b;
    CHECK_OK(ABT_mutex_create(&a));
    CHECK_OK(ABT_mutex_create(&b));
    CHECK(a != b);
    CHECK_OK(ABT_mutex_lock(a));
    CHECK_OK(ABT_mutex_trylock(b));
    CHECK_OK(ABT_mutex_unlock(b));
    CHECK_OK(ABT_mutex_unlock(a));
    CHECK_OK(ABT_mutex_free(&a));
    CHECK_OK(ABT_mutex_free(&b));

    CHECK_OK(ABT_finalize());

    /* After ABT_finalize: uninitialized again. */
    m = (ABT_mutex)(void *)0x1;
    CHECK_ERR(ABT_mutex_create(&m), ABT_ERR_UNINITIALIZED);
    CHECK(m == ABT_MUTEX_NULL);
    BB_TEST_END();
}
