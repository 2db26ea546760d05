/* ABT_mutex_attr_*: create gives a non-recursive attribute; set_recursive
 * with ABT_TRUE sets it and any other value clears it; get reads it back;
 * a NULL attribute handle is ABT_ERR_INV_MUTEX_ATTR and NULL pointers are
 * ABT_ERR_INV_ARG; free sets the handle to ABT_MUTEX_ATTR_NULL; all return
 * ABT_ERR_UNINITIALIZED without ABT_init. A mutex copies the attribute at
 * creation (freeing or changing the attribute later does not matter: a
 * recursive mutex lets its holder's trylock nest, a plain one refuses it with
 * ABT_ERR_MUTEX_LOCKED), and ABT_mutex_get_attr returns a new attribute
 * object describing the mutex. */
#include "bb_test.h"

int main(void)
{
    BB_TEST_BEGIN(10);
    ABT_mutex_attr attr = ABT_MUTEX_ATTR_NULL;
    ABT_bool b;

    CHECK_ERR(ABT_mutex_attr_create(&attr), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_mutex_attr_free(&attr), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_mutex_attr_set_recursive(attr, ABT_TRUE), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_mutex_attr_get_recursive(attr, &b), ABT_ERR_UNINITIALIZED);
    /* a handle that cannot be alive yet is not read */
    ABT_mutex m;
    CHECK_ERR(ABT_mutex_create_with_attr((ABT_mutex_attr)(intptr_t)0x10, &m),
              ABT_ERR_UNINITIALIZED);
    CHECK(m == ABT_MUTEX_NULL);

    CHECK_OK(ABT_init(0, NULL));

    /* NULL handles and pointers. */
    CHECK_ERR(ABT_mutex_attr_create(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_mutex_attr_free(NULL), ABT_ERR_INV_ARG);
    attr = ABT_MUTEX_ATTR_NULL;
    CHECK_ERR(ABT_mutex_attr_free(&attr), ABT_ERR_INV_MUTEX_ATTR);
    CHECK_ERR(ABT_mutex_attr_set_recursive(ABT_MUTEX_ATTR_NULL, ABT_TRUE),
              ABT_ERR_INV_MUTEX_ATTR);
    CHECK_ERR(ABT_mutex_attr_get_recursive(ABT_MUTEX_ATTR_NULL, &b), ABT_ERR_INV_MUTEX_ATTR);

    /* Default, set, clear. */
    CHECK_OK(ABT_mutex_attr_create(&attr));
    CHECK(attr != ABT_MUTEX_ATTR_NULL);
    b = ABT_TRUE;
    CHECK_OK(ABT_mutex_attr_get_recursive(attr, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_ERR(ABT_mutex_attr_get_recursive(attr, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_attr_get_recursive(attr, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_FALSE));
    CHECK_OK(ABT_mutex_attr_get_recursive(attr, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, (ABT_bool)5)); /* not ABT_TRUE: clears */
    CHECK_OK(ABT_mutex_attr_get_recursive(attr, &b));
    CHECK_EQ(b, ABT_FALSE);

    /* The mutex copies the attribute. */
    ABT_mutex rec, plain;
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_TRUE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, &rec));
    CHECK_OK(ABT_mutex_attr_set_recursive(attr, ABT_FALSE));
    CHECK_OK(ABT_mutex_create_with_attr(attr, &plain));
    CHECK_OK(ABT_mutex_attr_free(&attr));
    CHECK(attr == ABT_MUTEX_ATTR_NULL);
    CHECK_ERR(ABT_mutex_attr_free(&attr), ABT_ERR_INV_MUTEX_ATTR);

    /* Their kinds: the holder's trylock nests a recursive mutex and is
     * refused on a plain one. */
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_trylock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_ERR(ABT_mutex_unlock(rec), ABT_ERR_MUTEX);
    CHECK_OK(ABT_mutex_lock(plain));
    CHECK_ERR(ABT_mutex_trylock(plain), ABT_ERR_MUTEX_LOCKED);
    CHECK_OK(ABT_mutex_unlock(plain));
    CHECK_ERR(ABT_mutex_unlock(plain), ABT_ERR_MUTEX);

    /* get_attr: a new object each time, describing the mutex. */
    ABT_mutex_attr a1 = ABT_MUTEX_ATTR_NULL, a2 = ABT_MUTEX_ATTR_NULL;
    CHECK_OK(ABT_mutex_get_attr(rec, &a1));
    CHECK_OK(ABT_mutex_get_attr(rec, &a2));
    CHECK(a1 != ABT_MUTEX_ATTR_NULL);
    CHECK(a1 != a2);
    b = ABT_FALSE;
    CHECK_OK(ABT_mutex_attr_get_recursive(a1, &b));
    CHECK_EQ(b, ABT_TRUE);
    CHECK_OK(ABT_mutex_attr_set_recursive(a1, ABT_FALSE)); /* the mutex does not change */
    CHECK_OK(ABT_mutex_lock(rec));
    CHECK_OK(ABT_mutex_trylock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_unlock(rec));
    CHECK_OK(ABT_mutex_attr_free(&a1));
    CHECK_OK(ABT_mutex_attr_free(&a2));
    CHECK_OK(ABT_mutex_get_attr(plain, &a1));
    CHECK_OK(ABT_mutex_attr_get_recursive(a1, &b));
    CHECK_EQ(b, ABT_FALSE);
    CHECK_OK(ABT_mutex_attr_free(&a1));
    CHECK_ERR(ABT_mutex_get_attr(ABT_MUTEX_NULL, &a1), ABT_ERR_INV_MUTEX);
    CHECK_ERR(ABT_mutex_get_attr(plain, NULL), ABT_ERR_INV_ARG);

    CHECK_OK(ABT_mutex_free(&rec));
    CHECK_OK(ABT_mutex_free(&plain));
    CHECK_OK(ABT_finalize());

    CHECK_ERR(ABT_mutex_attr_create(&attr), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_mutex_create_with_attr((ABT_mutex_attr)(intptr_t)0x10, &m),
              ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
