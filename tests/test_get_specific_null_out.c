/* ABT_thread_get_specific checks, in order: UNINITIALIZED, INV_THREAD
 * (NULL handle), INV_KEY (NULL key), INV_ARG (NULL output) (REFERENCE,
 * section 17). Mutation testing (key.c) found the last one unchecked. */
#include "bb_test.h"

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_key key;
    CHECK_OK(ABT_key_create(NULL, &key));
    ABT_thread me;
    CHECK_OK(ABT_self_get_thread(&me));
    void *v = NULL;
    CHECK_ERR(ABT_thread_get_specific(me, key, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_get_specific(me, ABT_KEY_NULL, NULL), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_thread_get_specific(ABT_THREAD_NULL, ABT_KEY_NULL, NULL), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_thread_set_specific(me, key, &v));
    CHECK_OK(ABT_thread_get_specific(me, key, &v));
    CHECK(v == (void *)&v);
    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_thread_get_specific(me, key, NULL), ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
