/* ABT_mutex_equal compares handles: the same mutex is equal to itself, two
 * mutexes are not, ABT_MUTEX_NULL equals ABT_MUTEX_NULL, a static mutex's
 * handle equals another handle made from the same memory; a NULL result
 * pointer is ABT_ERR_INV_ARG. It needs no ABT_init. */
#include "bb_test.h"

static ABT_mutex_memory mem = ABT_MUTEX_INITIALIZER;

int main(void)
{
    BB_TEST_BEGIN(10);
    ABT_bool r = ABT_FALSE;
    ABT_mutex s1 = ABT_MUTEX_MEMORY_GET_HANDLE(&mem), s2 = ABT_MUTEX_MEMORY_GET_HANDLE(&mem);
    CHECK_OK(ABT_mutex_equal(s1, s2, &r));
    CHECK_EQ(r, ABT_TRUE);
    CHECK_OK(ABT_mutex_equal(ABT_MUTEX_NULL, ABT_MUTEX_NULL, &r));
    CHECK_EQ(r, ABT_TRUE);
    CHECK_OK(ABT_mutex_equal(s1, ABT_MUTEX_NULL, &r));
    CHECK_EQ(r, ABT_FALSE);

    CHECK_OK(ABT_init(0, NULL));
    ABT_mutex a, b;
    CHECK_OK(ABT_mutex_create(&a));
    CHECK_OK(ABT_mutex_create(&b));
    r = ABT_FALSE;
    CHECK_OK(ABT_mutex_equal(a, a, &r));
    CHECK_EQ(r, ABT_TRUE);
    CHECK_OK(ABT_mutex_equal(a, b, &r));
    CHECK_EQ(r, ABT_FALSE);
    CHECK_OK(ABT_mutex_equal(b, a, &r));
    CHECK_EQ(r, ABT_FALSE);
    r = ABT_TRUE;
    CHECK_OK(ABT_mutex_equal(a, ABT_MUTEX_NULL, &r));
    CHECK_EQ(r, ABT_FALSE);
    CHECK_OK(ABT_mutex_equal(a, s1, &r));
    CHECK_EQ(r, ABT_FALSE);
    CHECK_ERR(ABT_mutex_equal(a, b, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_mutex_free(&a));
    CHECK_OK(ABT_mutex_free(&b));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
