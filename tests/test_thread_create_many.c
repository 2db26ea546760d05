/* ABT_thread_create_many creates num ULTs, the i-th with pool_list[i],
 * func_list[i] and arg_list[i] (NULL args when arg_list is NULL), named when
 * a handle list is given and unnamed otherwise. An attribute carrying a user
 * stack is refused with ABT_ERR_INV_THREAD_ATTR. A failure stops the list:
 * the ULTs made before it stay, none after it is made. join_many skips NULL
 * entries; free_many frees and clears every entry. */
#include "bb_test.h"

#define N 12

static int hits[N];
static void *args_seen[N];
static int unnamed_done;

static void body(void *arg)
{
    int idx = (int)((intptr_t)arg & 0xff);
    __atomic_fetch_add(&hits[idx], 1, __ATOMIC_SEQ_CST);
    args_seen[idx] = arg;
}

static void body2(void *arg)
{
    body(arg);
}

static void null_arg(void *arg)
{
    if (arg == NULL)
        __atomic_fetch_add(&unnamed_done, 1, __ATOMIC_SEQ_CST);
}

int main(int argc, char **argv)
{
    BB_TEST_BEGIN(20);
    ABT_xstream self_es, es;
    ABT_pool pool0, pool1;
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_self(&self_es));
    CHECK_OK(ABT_xstream_get_main_pools(self_es, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));

    ABT_pool pools[N];
    void (*funcs[N])(void *);
    void *args[N];
    ABT_thread ts[N];
    for (int i = 0; i < N; i++) {
        pools[i] = (i & 1) ? pool1 : pool0;
        funcs[i] = (i % 3) ? body : body2;
        args[i] = (void *)(intptr_t)(0x100 | i);
        ts[i] = ABT_THREAD_NULL;
    }
    CHECK_OK(ABT_thread_create_many(N, pools, funcs, args, ABT_THREAD_ATTR_NULL, ts));
    for (int i = 0; i < N; i++)
        CHECK(ts[i] != ABT_THREAD_NULL);
    void (*f)(void *) = NULL;
    CHECK_OK(ABT_thread_get_thread_func(ts[1], &f));
    CHECK(f == body);
    CHECK_OK(ABT_thread_get_thread_func(ts[3], &f));
    CHECK(f == body2);

    /* join_many with holes. */
    ABT_thread holes[N + 2];
    holes[0] = ABT_THREAD_NULL;
    for (int i = 0; i < N; i++)
        holes[i + 1] = ts[i];
    holes[N + 1] = ABT_THREAD_NULL;
    CHECK_OK(ABT_thread_join_many(N + 2, holes));
    for (int i = 0; i < N; i++) {
        CHECK_EQ(hits[i], 1);
        CHECK(args_seen[i] == args[i]);
        ABT_thread_state st;
        CHECK_OK(ABT_thread_get_state(ts[i], &st));
        CHECK_EQ(st, ABT_THREAD_STATE_TERMINATED);
        ABT_xstream last;
        CHECK_OK(ABT_thread_get_last_xstream(ts[i], &last));
        CHECK(last == ((i & 1) ? es : self_es));
    }
    CHECK_OK(ABT_thread_free_many(N, ts));
    for (int i = 0; i < N; i++)
        CHECK(ts[i] == ABT_THREAD_NULL);
    /* free_many skips NULL entries. */
    CHECK_OK(ABT_thread_free_many(N, ts));

    /* Unnamed, with no argument list. */
    void (*nf[N])(void *);
    for (int i = 0; i < N; i++)
        nf[i] = null_arg;
    CHECK_OK(ABT_thread_create_many(N, pools, nf, NULL, ABT_THREAD_ATTR_NULL, NULL));
    while (__atomic_load_n(&unnamed_done, __ATOMIC_SEQ_CST) < N)
        ABT_thread_yield();
    CHECK_EQ(unnamed_done, N);

    /* A custom stack size through attr is fine; a user stack is not. */
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(attr, 32768));
    CHECK_OK(ABT_thread_create_many(2, pools, funcs, args, attr, ts));
    size_t size = 0;
    CHECK_OK(ABT_thread_get_stacksize(ts[0], &size));
    CHECK_EQ(size, 32768);
    CHECK_OK(ABT_thread_free_many(2, ts));
    static char stack[32768] __attribute__((aligned(64)));
    CHECK_OK(ABT_thread_attr_set_stack(attr, stack, sizeof(stack)));
    CHECK_ERR(ABT_thread_create_many(2, pools, funcs, args, attr, ts),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_OK(ABT_thread_attr_free(&attr));

    /* A NULL pool entry. */
    ABT_pool bad[1] = {ABT_POOL_NULL};
    CHECK_ERR(ABT_thread_create_many(1, bad, funcs, args, ABT_THREAD_ATTR_NULL, ts),
              ABT_ERR_INV_POOL);

    /* A failure in the middle: the one before stays and runs, the one after
     * is not made (its handle is left alone). Entry 1 is a private pool of
     * ES `es`, which refuses this ES (ABT_thread_create's INV_POOL_ACCESS). */
    ABT_pool priv;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    ABT_xstream owner;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &priv, ABT_SCHED_CONFIG_NULL, &owner));
    ABT_pool mixed[3] = {pool0, priv, pool0};
    hits[0] = hits[1] = hits[2] = 0;
    ts[2] = (ABT_thread)(void *)0x10;
    CHECK_ERR(ABT_thread_create_many(3, mixed, funcs, args, ABT_THREAD_ATTR_NULL, ts),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK(ts[0] != ABT_THREAD_NULL);
    CHECK(ts[1] == ABT_THREAD_NULL);
    CHECK(ts[2] == (ABT_thread)(void *)0x10);
    CHECK_OK(ABT_thread_free(&ts[0]));
    CHECK_EQ(hits[0], 1);
    CHECK_EQ(hits[1] + hits[2], 0);
    CHECK_OK(ABT_xstream_free(&owner));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
