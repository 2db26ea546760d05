/* Error codes of the key routines (no external threads here):
 *  - before ABT_init and after ABT_finalize: a NULL key -> ABT_ERR_INV_KEY
 *    first for key_set/key_get/self_set/self_get_specific, otherwise
 *    ABT_ERR_UNINITIALIZED; key_create, key_free and thread_set/get_specific
 *    -> ABT_ERR_UNINITIALIZED even with NULL arguments; key_create leaves
 *    *newkey alone on error;
 *  - initialized: key_set/get, self_*_specific with a NULL key -> INV_KEY;
 *    thread_*_specific with a NULL thread -> ABT_ERR_INV_THREAD (before the
 *    key check), with a NULL key -> INV_KEY; key_create(NULL out) and
 *    key_free(NULL) -> INV_ARG; key_free of a NULL key -> INV_KEY; failed
 *    get calls leave *value alone;
 *  - a tasklet may use the self/key routines. */
#include "bb_test.h"

static int dummy;
static ABT_key live;
static int task_rets[4] = {-1, -1, -1, -1};
static void *task_v;

static void task_fn(void *arg)
{
    (void)arg;
    task_rets[0] = ABT_key_set(live, &dummy);
    task_rets[1] = ABT_key_get(live, &task_v);
    task_rets[2] = ABT_self_set_specific(ABT_KEY_NULL, &dummy);
    task_rets[3] = ABT_self_get_specific(ABT_KEY_NULL, &task_v);
}

static void check_uninit(void)
{
    /* Never dereferenced: the UNINITIALIZED check comes before any use. */
    ABT_key fake = (ABT_key)(void *)&dummy;
    ABT_thread fake_thread = (ABT_thread)(void *)&dummy;
    void *v = &dummy;

    CHECK_ERR(ABT_key_set(ABT_KEY_NULL, &dummy), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_key_get(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_self_set_specific(ABT_KEY_NULL, &dummy), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_self_get_specific(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_key_set(fake, &dummy), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_key_get(fake, &v), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_set_specific(fake, &dummy), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_self_get_specific(fake, &v), ABT_ERR_UNINITIALIZED);
    CHECK(v == &dummy);

    CHECK_ERR(ABT_thread_set_specific(ABT_THREAD_NULL, ABT_KEY_NULL, &dummy),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_get_specific(ABT_THREAD_NULL, ABT_KEY_NULL, &v),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_set_specific(fake_thread, fake, &dummy), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_thread_get_specific(fake_thread, fake, &v), ABT_ERR_UNINITIALIZED);
    CHECK(v == &dummy);

    ABT_key k = fake;
    CHECK_ERR(ABT_key_create(NULL, &k), ABT_ERR_UNINITIALIZED);
    CHECK(k == fake);
    CHECK_ERR(ABT_key_create(NULL, NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_key_free(&k), ABT_ERR_UNINITIALIZED);
    CHECK(k == fake);
    k = ABT_KEY_NULL;
    CHECK_ERR(ABT_key_free(&k), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_key_free(NULL), ABT_ERR_UNINITIALIZED);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    check_uninit();

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_key_create(NULL, &live));
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    void *v = &dummy;

    CHECK_ERR(ABT_key_set(ABT_KEY_NULL, &dummy), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_key_get(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_self_set_specific(ABT_KEY_NULL, &dummy), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_self_get_specific(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK(v == &dummy);

    CHECK_ERR(ABT_thread_set_specific(ABT_THREAD_NULL, live, &dummy), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_specific(ABT_THREAD_NULL, live, &v), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_specific(ABT_THREAD_NULL, ABT_KEY_NULL, &dummy),
              ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_specific(ABT_THREAD_NULL, ABT_KEY_NULL, &v), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_set_specific(ABT_TASK_NULL, live, &dummy), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_task_get_specific(ABT_TASK_NULL, live, &v), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_specific(self, ABT_KEY_NULL, &dummy), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_thread_get_specific(self, ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK(v == &dummy);

    ABT_key k = live;
    CHECK_ERR(ABT_key_create(NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_key_free(NULL), ABT_ERR_INV_ARG);
    k = ABT_KEY_NULL;
    CHECK_ERR(ABT_key_free(&k), ABT_ERR_INV_KEY);

    /* Nothing above changed the primary's value. */
    CHECK_OK(ABT_self_get_specific(live, &v));
    CHECK(v == NULL);

    /* A tasklet caller. */
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_self(&es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));
    ABT_task t;
    CHECK_OK(ABT_task_create(pool, task_fn, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_EQ(task_rets[0], ABT_SUCCESS);
    CHECK_EQ(task_rets[1], ABT_SUCCESS);
    CHECK(task_v == &dummy);
    CHECK_EQ(task_rets[2], ABT_ERR_INV_KEY);
    CHECK_EQ(task_rets[3], ABT_ERR_INV_KEY);

    CHECK_OK(ABT_key_free(&live));
    CHECK(live == ABT_KEY_NULL);
    CHECK_OK(ABT_finalize());
    check_uninit();
    BB_TEST_END();
}
