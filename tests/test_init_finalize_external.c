/* The outermost ABT_finalize from an external pthread (not an ES) returns
 * ABT_ERR_INV_XSTREAM and leaves the runtime up. */
#include "bb_test.h"
#include <pthread.h>

static int ext_ret = -1, ext_init_ret = -1;

static void *ext_fn(void *arg)
{
    (void)arg;
    ext_ret = ABT_finalize();
    ext_init_ret = ABT_initialized();
    return NULL;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, ext_fn, NULL), 0);
    pthread_join(t, NULL);
    CHECK_EQ(ext_ret, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(ext_init_ret, ABT_SUCCESS);
    CHECK_OK(ABT_initialized());
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
