/* ABT_self_schedule gives ABT_ERR_INV_THREAD when `thread` is an ES's main
 * scheduler (REFERENCE, section 4), also one that was given an associated
 * pool (ABT_self_set_associated_pool accepts any unit). self.c used to tell
 * a main scheduler from a stacked one by "no associated pool", so such a
 * main scheduler fell through to the state test and got ABT_ERR_THREAD (it
 * is RUNNING), also after its ES had ended. Found by mutation testing. */
#include "sched_user_util.h"

static ABT_thread sched_ult;
static ABT_pool other;
static int set_err = -1, sched_err = -1;

static void sched_run(ABT_sched sched)
{
    CHECK_OK(ABT_self_get_thread(&sched_ult));
    set_err = ABT_self_set_associated_pool(other);
    one_pool_sched_run(sched);
}

static void body(void *arg)
{
    (void)arg;
    sched_err = ABT_self_schedule(sched_ult, ABT_POOL_NULL);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &other));
    ABT_pool pool;
    ABT_sched sched;
    ABT_xstream es = start_user_sched_es(sched_run, &sched, &pool);
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t)); /* on that ES */
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(set_err);
    CHECK_EQ(sched_err, ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_ERR(ABT_self_schedule(sched_ult, ABT_POOL_NULL), ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_pool_free(&other));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
