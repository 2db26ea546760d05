/* Before ABT_init (and after the last ABT_finalize) a sample of the ULT,
 * tasklet, self and attribute routines return ABT_ERR_UNINITIALIZED; thread
 * creation clears *newthread first; ABT_thread_equal still works. */
#include "bb_test.h"

#define POISON_THREAD ((ABT_thread)(void *)0x1234)

static void noop(void *arg)
{
    (void)arg;
}

static void check_all(void)
{
    ABT_thread t = POISON_THREAD;
    CHECK_ERR(ABT_thread_create(ABT_POOL_NULL, noop, NULL, ABT_THREAD_ATTR_NULL, &t),
              ABT_ERR_UNINITIALIZED);
    CHECK(t == ABT_THREAD_NULL);
    CHECK_ERR(ABT_thread_create_on_xstream(ABT_XSTREAM_NULL, noop, NULL, ABT_THREAD_ATTR_NULL,
                                           NULL),
              ABT_ERR_UNINITIALIZED);
    ABT_task k = (ABT_task)POISON_THREAD;
    CHECK_ERR(ABT_task_create(ABT_POOL_NULL, noop, NULL, &k), ABT_ERR_UNINITIALIZED);
    CHECK(k == ABT_TASK_NULL);
    CHECK_ERR(ABT_thread_join(ABT_THREAD_NULL), ABT_ERR_UNINITIALIZED);
    ABT_thread null_t = ABT_THREAD_NULL;
    CHECK_ERR(ABT_thread_free(&null_t), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_self(&t), ABT_ERR_UNINITIALIZED);
    ABT_unit_id id;
    CHECK_ERR(ABT_thread_self_id(&id), ABT_ERR_UNINITIALIZED);
    ABT_xstream xs;
    CHECK_ERR(ABT_self_get_xstream(&xs), ABT_ERR_UNINITIALIZED);
    int rank;
    CHECK_ERR(ABT_self_get_xstream_rank(&rank), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_yield(), ABT_ERR_UNINITIALIZED);
    ABT_thread_attr attr;
    CHECK_ERR(ABT_thread_attr_create(&attr), ABT_ERR_UNINITIALIZED);

    ABT_bool eq = ABT_FALSE;
    CHECK_OK(ABT_thread_equal(ABT_THREAD_NULL, ABT_THREAD_NULL, &eq));
    CHECK_EQ(eq, ABT_TRUE);
}

int main(void)
{
    BB_TEST_BEGIN(10);
    check_all();
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_finalize());
    check_all();
    BB_TEST_END();
}
