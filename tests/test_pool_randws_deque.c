/* The built-in RANDWS pool is a deque, for every access kind: a push whose
 * context has OP_THREAD_CREATE, CREATE_TO, REVIVE or REVIVE_TO goes to the
 * head, every other push (pool_push's POOL_OTHER, yield, yield_to, resume,
 * yield loop, migrate...) to the tail; a pop whose context has
 * OWNER_SECONDARY takes the tail (a steal), every other pop the head.
 * ABT_thread_create and ABT_thread_revive push with their OP_THREAD_* context,
 * so the newest ULT is at the head. */
#include "bb_test.h"

#define N 4

static int ran[N];

static void work(void *arg)
{
    ran[(long)arg]++;
}

static ABT_pool pool;

/* Pop one unit with `ctx` and check that it is `want`. */
#define POP_IS(ctx, want)                                                                  \
    do {                                                                                   \
        ABT_thread got_ = ABT_THREAD_NULL;                                                 \
        CHECK_OK(ABT_pool_pop_thread_ex(pool, &got_, (ctx)));                              \
        CHECK(got_ == (want));                                                             \
    } while (0)

static const ABT_pool_context head_push[] = {
    ABT_POOL_CONTEXT_OP_THREAD_CREATE,
    ABT_POOL_CONTEXT_OP_THREAD_CREATE_TO,
    ABT_POOL_CONTEXT_OP_THREAD_REVIVE,
    ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO,
    ABT_POOL_CONTEXT_OP_THREAD_CREATE | ABT_POOL_CONTEXT_OWNER_PRIMARY,
    ABT_POOL_CONTEXT_OP_THREAD_REVIVE | ABT_POOL_CONTEXT_PRIO_LOW_PRIO,
};

static const ABT_pool_context tail_push[] = {
    ABT_POOL_CONTEXT_OP_POOL_OTHER,
    ABT_POOL_CONTEXT_OP_THREAD_YIELD,
    ABT_POOL_CONTEXT_OP_THREAD_YIELD_TO,
    ABT_POOL_CONTEXT_OP_THREAD_RESUME_YIELD_TO,
    ABT_POOL_CONTEXT_OP_THREAD_YIELD_LOOP,
    ABT_POOL_CONTEXT_OP_THREAD_RESUME,
    ABT_POOL_CONTEXT_OP_THREAD_MIGRATE,
    ABT_POOL_CONTEXT_OWNER_SECONDARY,
    ABT_POOL_CONTEXT_PRIO_HIGH_PRIO,
};

static const ABT_pool_context head_pop[] = {
    ABT_POOL_CONTEXT_OP_POOL_OTHER,
    ABT_POOL_CONTEXT_OWNER_PRIMARY,
    ABT_POOL_CONTEXT_PRIO_HIGH_PRIO,
    ABT_POOL_CONTEXT_OP_THREAD_CREATE,
};

static const ABT_pool_context tail_pop[] = {
    ABT_POOL_CONTEXT_OWNER_SECONDARY,
    ABT_POOL_CONTEXT_OWNER_SECONDARY | ABT_POOL_CONTEXT_PRIO_LOW_PRIO,
    ABT_POOL_CONTEXT_OWNER_SECONDARY | ABT_POOL_CONTEXT_OP_THREAD_MIGRATE,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    for (int access = ABT_POOL_ACCESS_PRIV; access <= ABT_POOL_ACCESS_MPMC; access++) {
        CHECK_OK(ABT_pool_create_basic(ABT_POOL_RANDWS, (ABT_pool_access)access, ABT_FALSE,
                                       &pool));
        ABT_pool_access got_access;
        CHECK_OK(ABT_pool_get_access(pool, &got_access));
        CHECK_EQ(got_access, access);

        /* Creation pushes at the head: deque is t2 t1 t0 (head first). */
        ABT_thread t[N];
        for (long i = 0; i < 3; i++)
            CHECK_OK(ABT_thread_create(pool, work, (void *)i, ABT_THREAD_ATTR_NULL, &t[i]));
        POP_IS(ABT_POOL_CONTEXT_OWNER_SECONDARY, t[0]);
        POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[2]);
        POP_IS(ABT_POOL_CONTEXT_OWNER_PRIMARY, t[1]);
        POP_IS(ABT_POOL_CONTEXT_OWNER_SECONDARY, ABT_THREAD_NULL);
        POP_IS(ABT_POOL_CONTEXT_OWNER_PRIMARY, ABT_THREAD_NULL);
        ABT_thread x = t[0];
        CHECK_OK(ABT_pool_pop_thread(pool, &x));
        CHECK(x == ABT_THREAD_NULL);

        /* Each push context: with t0 already in the pool, a head push puts
         * t1 before it, a tail push after it. */
        for (size_t c = 0; c < COUNT(head_push); c++) {
            CHECK_OK(ABT_pool_push_thread(pool, t[0]));
            CHECK_OK(ABT_pool_push_thread_ex(pool, t[1], head_push[c]));
            POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[1]);
            POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[0]);
        }
        for (size_t c = 0; c < COUNT(tail_push); c++) {
            CHECK_OK(ABT_pool_push_thread(pool, t[0]));
            CHECK_OK(ABT_pool_push_thread_ex(pool, t[1], tail_push[c]));
            POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[0]);
            POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[1]);
        }

        /* Each pop context: deque t0 t1 t2 (pushed at the tail). */
        for (size_t c = 0; c < COUNT(head_pop); c++) {
            for (int i = 0; i < 3; i++)
                CHECK_OK(ABT_pool_push_thread(pool, t[i]));
            POP_IS(head_pop[c], t[0]);
            POP_IS(ABT_POOL_CONTEXT_OWNER_SECONDARY, t[2]);
            POP_IS(ABT_POOL_CONTEXT_OWNER_SECONDARY, t[1]);
        }
        for (size_t c = 0; c < COUNT(tail_pop); c++) {
            for (int i = 0; i < 3; i++)
                CHECK_OK(ABT_pool_push_thread(pool, t[i]));
            POP_IS(tail_pop[c], t[2]);
            POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[0]);
            POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[1]);
        }

        /* A mixed sequence: OTHER t0, CREATE t1, YIELD t2, REVIVE_TO t3
         * -> deque t3 t1 t0 t2. */
        CHECK_OK(ABT_thread_create(pool, work, (void *)3, ABT_THREAD_ATTR_NULL, &t[3]));
        POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[3]);
        CHECK_OK(ABT_pool_push_thread_ex(pool, t[0], ABT_POOL_CONTEXT_OP_POOL_OTHER));
        CHECK_OK(ABT_pool_push_thread_ex(pool, t[1], ABT_POOL_CONTEXT_OP_THREAD_CREATE));
        CHECK_OK(ABT_pool_push_thread_ex(pool, t[2], ABT_POOL_CONTEXT_OP_THREAD_YIELD));
        CHECK_OK(ABT_pool_push_thread_ex(pool, t[3], ABT_POOL_CONTEXT_OP_THREAD_REVIVE_TO));
        size_t size = 0;
        CHECK_OK(ABT_pool_get_size(pool, &size));
        CHECK_EQ(size, 4);
        POP_IS(ABT_POOL_CONTEXT_OWNER_SECONDARY, t[2]);
        POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[3]);
        POP_IS(ABT_POOL_CONTEXT_OWNER_SECONDARY, t[0]);
        POP_IS(ABT_POOL_CONTEXT_OWNER_PRIMARY, t[1]);

        /* Run them all on the primary ES. */
        memset(ran, 0, sizeof(ran));
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_pool_push_thread(main_pool, t[i]));
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_thread_join(t[i]));
        for (int i = 0; i < N; i++)
            CHECK_EQ(ran[i], 1);

        /* ABT_thread_revive pushes with OP_THREAD_REVIVE: to the head, in
         * front of y, which a pop took and ABT_pool_push_thread put back. */
        ABT_thread y;
        CHECK_OK(ABT_thread_create(pool, work, (void *)1, ABT_THREAD_ATTR_NULL, &y));
        POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, y);
        CHECK_OK(ABT_pool_push_thread(pool, y));
        CHECK_OK(ABT_thread_revive(pool, work, (void *)0, &t[0]));
        POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, t[0]);
        POP_IS(ABT_POOL_CONTEXT_OP_POOL_OTHER, y);
        CHECK_OK(ABT_pool_push_thread(main_pool, t[0]));
        CHECK_OK(ABT_pool_push_thread(main_pool, y));
        CHECK_OK(ABT_thread_free(&y));
        for (int i = 0; i < N; i++)
            CHECK_OK(ABT_thread_free(&t[i]));
        CHECK_EQ(ran[0], 2);
        CHECK_EQ(ran[1], 2);
        CHECK_OK(ABT_pool_free(&pool));
    }

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
