/* A NULL output pointer gets ABT_ERR_INV_ARG, at the place REFERENCE.md
 * lists it: the getters, creators and configuration routines below, with
 * valid handles otherwise. Where INV_ARG comes before UNINITIALIZED (or the
 * routine is pre-init: the *_equal ones, the configuration and definition
 * creators), it is also what they return before ABT_init and after the last
 * ABT_finalize. No call writes through the NULL, and a refused creation
 * creates nothing (ABT_xstream_get_num stays 1). */
#include "pool_user_util.h"

static void noop(void *arg)
{
    (void)arg;
}

/* Where INV_ARG is checked first, or the routine needs no runtime: the same
 * answer with and without it. */
static void check_inv_arg_first(void)
{
    CHECK_ERR(ABT_pool_config_create(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_config_create(NULL, ABT_sched_config_var_end), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_pool_create(ABT_POOL_USER_DEF_NULL, ABT_POOL_CONFIG_NULL, NULL),
              ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, NULL),
              ABT_ERR_INV_ARG);
    ABT_thread th = (ABT_thread)(void *)0x10;
    CHECK_ERR(ABT_unit_get_thread(ABT_UNIT_NULL, NULL), ABT_ERR_INV_ARG);

    /* ABT_pool_user_def_create: no place for the definition, or one of the
     * five callbacks missing; *newdef is NULL after the latter. */
    CHECK_ERR(ABT_pool_user_def_create(up_create_unit, up_free_unit, up_is_empty, up_pop, up_push,
                                       NULL),
              ABT_ERR_INV_ARG);
    ABT_pool_user_def def = (ABT_pool_user_def)(void *)0x10;
    CHECK_ERR(ABT_pool_user_def_create(up_create_unit, up_free_unit, up_is_empty, NULL, up_push,
                                       &def),
              ABT_ERR_INV_ARG);
    CHECK(def == ABT_POOL_USER_DEF_NULL);
    def = (ABT_pool_user_def)(void *)0x10;
    CHECK_ERR(ABT_pool_user_def_create(NULL, up_free_unit, up_is_empty, up_pop, up_push, &def),
              ABT_ERR_INV_ARG);
    CHECK(def == ABT_POOL_USER_DEF_NULL);

    CHECK_ERR(ABT_self_get_xstream(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_xstream_rank(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_thread(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_thread_id(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_type(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_is_primary(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_on_primary_xstream(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_is_unnamed(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_last_pool(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_last_pool_id(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_unit(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_arg(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_self_get_thread_func(NULL), ABT_ERR_INV_ARG);

    CHECK_ERR(ABT_thread_self(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_self_id(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_equal(th, th, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_task_self(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_task_self_id(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_attr_create(NULL), ABT_ERR_INV_ARG);

    CHECK_ERR(ABT_xstream_create(ABT_SCHED_NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, NULL),
              ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_self(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_self_rank(NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_equal(ABT_XSTREAM_NULL, ABT_XSTREAM_NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_num(NULL), ABT_ERR_INV_ARG);
}

int main(void)
{
    BB_TEST_BEGIN(20);
    check_inv_arg_first();
    CHECK_OK(ABT_init(0, NULL));
    check_inv_arg_first();
    int num_es = 0;
    CHECK_OK(ABT_xstream_get_num(&num_es));
    CHECK_EQ(num_es, 1); /* the refused creations made no ES */

    ABT_xstream es;
    CHECK_OK(ABT_xstream_self(&es));
    ABT_pool pool = bb_test_main_pool();

    /* ABT_pool_push_threads(_ex): no array for a positive count. */
    CHECK_ERR(ABT_pool_push_threads(pool, NULL, 2), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_pool_push_threads_ex(pool, NULL, 1, ABT_POOL_CONTEXT_OP_POOL_OTHER),
              ABT_ERR_INV_ARG);
    CHECK_OK(ABT_pool_push_threads(pool, NULL, 0));
    size_t size = 99;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 0);

    /* ABT_unit_get_thread with a real unit. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_unit u;
    CHECK_OK(ABT_thread_get_unit(t, &u));
    CHECK_ERR(ABT_unit_get_thread(u, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_thread_free(&t));

    /* Scheduler queries (UNINITIALIZED, INV_SCHED, INV_ARG) and
     * ABT_sched_has_to_stop (UNINITIALIZED, INV_ARG, ...). */
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, &sched));
    CHECK_ERR(ABT_sched_get_data(sched, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_num_pools(sched, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_size(sched, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_total_size(sched, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_get_num_pools(ABT_SCHED_NULL, NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_sched_has_to_stop(sched, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_has_to_stop(ABT_SCHED_NULL, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_sched_free(&sched));

    /* ABT_key_get: INV_KEY, then INV_ARG. */
    ABT_key key;
    CHECK_OK(ABT_key_create(NULL, &key));
    CHECK_ERR(ABT_key_get(key, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_key_get(ABT_KEY_NULL, NULL), ABT_ERR_INV_KEY);
    CHECK_OK(ABT_key_free(&key));

    /* ABT_task_get_state: INV_TASK (NULL or a ULT), then INV_ARG. */
    ABT_task k;
    CHECK_OK(ABT_task_create(pool, noop, NULL, &k));
    CHECK_ERR(ABT_task_get_state(k, NULL), ABT_ERR_INV_ARG);
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_ERR(ABT_task_get_state(self, NULL), ABT_ERR_INV_TASK);
    CHECK_OK(ABT_task_free(&k));

    /* Attribute getters: UNINITIALIZED, INV_THREAD_ATTR, INV_ARG. */
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    void *addr = (void *)0x10;
    size_t stacksize = 99;
    CHECK_ERR(ABT_thread_attr_get_stack(attr, NULL, &stacksize), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_thread_attr_get_stack(attr, &addr, NULL), ABT_ERR_INV_ARG);
    CHECK(addr == (void *)0x10);
    CHECK_EQ(stacksize, 99);
    CHECK_ERR(ABT_thread_attr_get_stacksize(attr, NULL), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_thread_attr_free(&attr));

    /* ES getters: UNINITIALIZED, INV_XSTREAM, INV_ARG. */
    CHECK_ERR(ABT_xstream_get_rank(es, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_main_sched(es, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_state(es, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_is_primary(es, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_state(ABT_XSTREAM_NULL, NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_xstream_get_cpubind(es, NULL), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_xstream_get_cpubind(ABT_XSTREAM_NULL, NULL), ABT_ERR_INV_XSTREAM);

    CHECK_OK(ABT_finalize());
    check_inv_arg_first();
    BB_TEST_END();
}
