/* Built-in FIFO and FIFO_WAIT pools, for every access kind, are plain FIFOs
 * that ignore the pool context: ULTs come out in creation order, and
 * ABT_pool_push_thread(_ex) appends at the tail / ABT_pool_pop_thread(_ex)
 * takes the head whatever the context (thread create, revive, yield,
 * migrate, owner secondary...). ABT_pool_get_access reports the access.
 * ABT_pool_create_basic errors: invalid access -> INV_POOL_ACCESS (checked
 * before the kind), invalid kind -> INV_POOL_KIND, *newpool set to NULL. */
#include "bb_test.h"

#define N 5

static int ran[N];

static void work(void *arg)
{
    ran[(long)arg]++;
}

static const ABT_pool_context push_ctx[N] = {
    ABT_POOL_CONTEXT_OP_THREAD_CREATE, ABT_POOL_CONTEXT_OP_POOL_OTHER,
    ABT_POOL_CONTEXT_OP_THREAD_REVIVE | ABT_POOL_CONTEXT_OWNER_PRIMARY,
    ABT_POOL_CONTEXT_OP_THREAD_YIELD, ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO};

static const ABT_pool_context pop_ctx[N] = {
    ABT_POOL_CONTEXT_OWNER_SECONDARY, ABT_POOL_CONTEXT_OP_POOL_OTHER,
    ABT_POOL_CONTEXT_OWNER_PRIMARY, ABT_POOL_CONTEXT_OWNER_SECONDARY |
    ABT_POOL_CONTEXT_PRIO_HIGH_PRIO, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE};

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    const ABT_pool_kind kinds[2] = {ABT_POOL_FIFO, ABT_POOL_FIFO_WAIT};
    for (int k = 0; k < 2; k++) {
        for (int access = ABT_POOL_ACCESS_PRIV; access <= ABT_POOL_ACCESS_MPMC; access++) {
            ABT_pool pool;
            CHECK_OK(ABT_pool_create_basic(kinds[k], (ABT_pool_access)access, ABT_FALSE, &pool));
            ABT_pool_access got_access = (ABT_pool_access)-1;
            CHECK_OK(ABT_pool_get_access(pool, &got_access));
            CHECK_EQ(got_access, access);

            /* Creation pushes with OP_THREAD_CREATE: still FIFO order. */
            ABT_thread t[N];
            for (long i = 0; i < N; i++)
                CHECK_OK(ABT_thread_create(pool, work, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
            for (int i = 0; i < N; i++) {
                ABT_thread x = ABT_THREAD_NULL;
                CHECK_OK(ABT_pool_pop_thread_ex(pool, &x, pop_ctx[i]));
                CHECK(x == t[i]);
            }
            ABT_thread x = t[0];
            CHECK_OK(ABT_pool_pop_thread(pool, &x));
            CHECK(x == ABT_THREAD_NULL);

            /* Pushes with every kind of context: still FIFO order. */
            for (int i = 0; i < N; i++)
                CHECK_OK(ABT_pool_push_thread_ex(pool, t[i], push_ctx[i]));
            for (int i = 0; i < N; i++) {
                x = ABT_THREAD_NULL;
                CHECK_OK(ABT_pool_pop_thread_ex(pool, &x, pop_ctx[N - 1 - i]));
                CHECK(x == t[i]);
            }

            /* Interleaved pushes and pops. */
            CHECK_OK(ABT_pool_push_thread_ex(pool, t[3], ABT_POOL_CONTEXT_OP_THREAD_CREATE));
            CHECK_OK(ABT_pool_push_thread(pool, t[1]));
            CHECK_OK(ABT_pool_pop_thread_ex(pool, &x, ABT_POOL_CONTEXT_OWNER_SECONDARY));
            CHECK(x == t[3]);
            CHECK_OK(ABT_pool_push_thread_ex(pool, t[4], ABT_POOL_CONTEXT_OP_THREAD_REVIVE));
            CHECK_OK(ABT_pool_push_thread_ex(pool, t[0], ABT_POOL_CONTEXT_OP_THREAD_RESUME));
            CHECK_OK(ABT_pool_push_thread_ex(pool, t[2], ABT_POOL_CONTEXT_OP_THREAD_MIGRATE));
            CHECK_OK(ABT_pool_push_thread(pool, t[3]));
            const int expect[N] = {1, 4, 0, 2, 3};
            ABT_thread order[N];
            for (int i = 0; i < N; i++) {
                order[i] = ABT_THREAD_NULL;
                CHECK_OK(ABT_pool_pop_thread(pool, &order[i]));
                CHECK(order[i] == t[expect[i]]);
            }
            ABT_bool empty = ABT_FALSE;
            CHECK_OK(ABT_pool_is_empty(pool, &empty));
            CHECK_EQ(empty, ABT_TRUE);

            /* Hand them to the primary ES and let them run. */
            memset(ran, 0, sizeof(ran));
            for (int i = 0; i < N; i++)
                CHECK_OK(ABT_pool_push_thread(main_pool, t[i]));
            for (int i = 0; i < N; i++) {
                CHECK_OK(ABT_thread_free(&t[i]));
                CHECK_EQ(ran[i], 1);
            }
            CHECK_OK(ABT_pool_free(&pool));
            CHECK(pool == ABT_POOL_NULL);
        }
    }

    /* Creation errors. */
    ABT_pool p = (ABT_pool)(void *)0x8;
    CHECK_ERR(ABT_pool_create_basic(ABT_POOL_FIFO, (ABT_pool_access)99, ABT_FALSE, &p),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK(p == ABT_POOL_NULL);
    p = (ABT_pool)(void *)0x8;
    CHECK_ERR(ABT_pool_create_basic((ABT_pool_kind)99, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &p),
              ABT_ERR_INV_POOL_KIND);
    CHECK(p == ABT_POOL_NULL);
    CHECK_ERR(ABT_pool_create_basic((ABT_pool_kind)99, (ABT_pool_access)-7, ABT_FALSE, &p),
              ABT_ERR_INV_POOL_ACCESS);
    CHECK_ERR(ABT_pool_get_access(ABT_POOL_NULL, &(ABT_pool_access){0}), ABT_ERR_INV_POOL);

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
