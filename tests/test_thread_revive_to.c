/* ABT_thread_revive_to revives a terminated ULT and switches to it at once:
 * the revived function runs before revive_to returns to the caller.
 * Errors: external caller -> INV_XSTREAM; tasklet caller -> INV_THREAD;
 * NULL handle / not terminated / tasklet target -> INV_THREAD; NULL pool ->
 * INV_POOL. */
#include <pthread.h>
#include "bb_test.h"

static ABT_pool pool1;
static ABT_thread target;
static ABT_task task_target;
static int seq, child_seq = -1, after_seq = -1;
static int r_revive_to = -1, r_null = -1, r_not_term = -1, r_task_target = -1,
           r_null_pool = -1, r_task_caller = -1, r_ext = -1;

static void child(void *arg)
{
    (void)arg;
    child_seq = ++seq;
}

static void noop(void *arg)
{
    (void)arg;
}

static void parent(void *arg)
{
    (void)arg;
    ABT_thread self;
    ABT_self_get_thread(&self);
    ABT_thread null_t = ABT_THREAD_NULL;
    r_null = ABT_thread_revive_to(pool1, child, NULL, &null_t);
    r_not_term = ABT_thread_revive_to(pool1, child, NULL, &self);
    r_task_target = ABT_thread_revive_to(pool1, child, NULL, &task_target);
    r_null_pool = ABT_thread_revive_to(ABT_POOL_NULL, child, NULL, &target);
    seq = 0;
    r_revive_to = ABT_thread_revive_to(pool1, child, NULL, &target);
    after_seq = ++seq;
}

static void tasklet_caller(void *arg)
{
    (void)arg;
    r_task_caller = ABT_thread_revive_to(pool1, child, NULL, &target);
}

static void *ext_fn(void *arg)
{
    (void)arg;
    r_ext = ABT_thread_revive_to(pool1, child, NULL, &target);
    return NULL;
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream es;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    CHECK_OK(ABT_thread_create(pool1, noop, NULL, ABT_THREAD_ATTR_NULL, &target));
    CHECK_OK(ABT_thread_join(target));
    CHECK_OK(ABT_task_create(pool1, noop, NULL, &task_target));
    CHECK_OK(ABT_task_join(task_target));

    ABT_task tc;
    CHECK_OK(ABT_task_create(pool1, tasklet_caller, NULL, &tc));
    CHECK_OK(ABT_task_free(&tc));
    CHECK_EQ(r_task_caller, ABT_ERR_INV_THREAD);
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, ext_fn, NULL), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(r_ext, ABT_ERR_INV_XSTREAM);
    CHECK_EQ(child_seq, -1); /* nothing revived so far */

    ABT_thread p;
    CHECK_OK(ABT_thread_create(pool1, parent, NULL, ABT_THREAD_ATTR_NULL, &p));
    CHECK_OK(ABT_thread_free(&p));
    CHECK_EQ(r_null, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_not_term, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_task_target, ABT_ERR_INV_THREAD);
    CHECK_EQ(r_null_pool, ABT_ERR_INV_POOL);
    CHECK_EQ(r_revive_to, ABT_SUCCESS);
    CHECK_EQ(child_seq, 1);  /* the revived ULT ran first ... */
    CHECK_EQ(after_seq, 2);  /* ... and the caller only afterwards */
    CHECK_OK(ABT_thread_free(&target));
    CHECK_OK(ABT_task_free(&task_target));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
