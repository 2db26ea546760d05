/* A scheduler's ULT is never the target of a hand-over: ABT_self_yield_to,
 * ABT_self_suspend_to, ABT_self_exit_to and their resume_ forms give
 * ABT_ERR_INV_THREAD for it (REFERENCE, section 4: "thread NULL, a tasklet,
 * the caller, or a scheduler"), and so does ABT_self_schedule for an ES's
 * main scheduler ("thread is the caller or an ES's main scheduler"), before
 * looking at its state. The target here is the main scheduler (user-defined,
 * so that it can say who it is) of the ES the caller runs on. Mutation
 * testing (self.c, check_handover and ABT_self_schedule) found nothing
 * checking a scheduler target. */
#include "sched_user_util.h"

static ABT_thread sched_ult = ABT_THREAD_NULL;
static int errs[7];

static void sched_run(ABT_sched sched)
{
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    __atomic_store_n(&sched_ult, self, __ATOMIC_SEQ_CST); /* main polls it */
    one_pool_sched_run(sched);
}

static void body(void *arg)
{
    (void)arg;
    ABT_thread s = __atomic_load_n(&sched_ult, __ATOMIC_SEQ_CST);
    errs[0] = ABT_self_yield_to(s);
    errs[1] = ABT_self_resume_yield_to(s);
    errs[2] = ABT_self_suspend_to(s);
    errs[3] = ABT_self_resume_suspend_to(s);
    errs[4] = ABT_self_exit_to(s);
    errs[5] = ABT_self_resume_exit_to(s);
    errs[6] = ABT_self_schedule(s, ABT_POOL_NULL);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool;
    ABT_sched sched;
    ABT_xstream es = start_user_sched_es(sched_run, &sched, &pool);
    while (__atomic_load_n(&sched_ult, __ATOMIC_SEQ_CST) == ABT_THREAD_NULL)
        ABT_thread_yield();
    for (int i = 0; i < 7; i++)
        errs[i] = -12345;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    for (int i = 0; i < 7; i++)
        CHECK_EQ(errs[i], ABT_ERR_INV_THREAD);
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
