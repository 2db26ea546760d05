/* Nested ABT_init / ABT_finalize: only the outermost finalize tears the
 * runtime down; inner finalizes only decrement the counter (from any caller,
 * even an external pthread), and the runtime keeps working in between. */
#include "bb_test.h"
#include <pthread.h>

static int ext_ret = -1;
static void *ext_finalize(void *arg)
{
    (void)arg;
    ext_ret = ABT_finalize();
    return NULL;
}

static int ran;
static void work(void *arg)
{
    (void)arg;
    ran++;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_init(0, NULL));

    /* Nested init does not build a second primary ES. */
    ABT_xstream again;
    CHECK_OK(ABT_xstream_self(&again));
    CHECK(again == primary);
    int num = -1;
    CHECK_OK(ABT_xstream_get_num(&num));
    CHECK_EQ(num, 1);

    CHECK_OK(ABT_finalize());
    CHECK_OK(ABT_initialized());

    /* An inner finalize from an external thread only decrements. */
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, ext_finalize, NULL), 0);
    pthread_join(t, NULL);
    CHECK_EQ(ext_ret, ABT_SUCCESS);
    CHECK_OK(ABT_initialized());

    /* Still fully usable. */
    ABT_pool pool;
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &pool));
    ABT_thread th;
    CHECK_OK(ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &th));
    CHECK_OK(ABT_thread_free(&th));
    CHECK_EQ(ran, 1);

    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_finalize(), ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
