/* ABT_self_get_type: ABT_UNIT_TYPE_THREAD in a ULT (including the primary
 * ULT), ABT_UNIT_TYPE_TASK in a tasklet; an external pthread gets
 * ABT_ERR_INV_XSTREAM with *type set to ABT_UNIT_TYPE_EXT. */
#include <pthread.h>
#include "bb_test.h"

static ABT_unit_type t_ult = (ABT_unit_type)-1, t_task = (ABT_unit_type)-1,
                     t_ext = ABT_UNIT_TYPE_THREAD;
static int r_ult = -1, r_task = -1, r_ext = -1;

static void ult_fn(void *arg)
{
    (void)arg;
    r_ult = ABT_self_get_type(&t_ult);
}

static void task_fn(void *arg)
{
    (void)arg;
    r_task = ABT_self_get_type(&t_task);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_self_get_type(&t_ext);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    ABT_pool pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_unit_type t = (ABT_unit_type)-1;
    CHECK_OK(ABT_self_get_type(&t));
    CHECK_EQ(t, ABT_UNIT_TYPE_THREAD);

    ABT_thread u;
    CHECK_OK(ABT_thread_create(pool1, ult_fn, NULL, ABT_THREAD_ATTR_NULL, &u));
    CHECK_OK(ABT_thread_free(&u));
    CHECK_OK(r_ult);
    CHECK_EQ(t_ult, ABT_UNIT_TYPE_THREAD);

    ABT_task tk;
    CHECK_OK(ABT_task_create(pool1, task_fn, NULL, &tk));
    CHECK_OK(ABT_task_free(&tk));
    CHECK_OK(r_task);
    CHECK_EQ(t_task, ABT_UNIT_TYPE_TASK);

    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(t_ext, ABT_UNIT_TYPE_EXT);

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
