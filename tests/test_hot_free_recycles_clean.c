/* A freed unit's descriptor goes back to its ES cache, and the create
 * shortcut takes it without writing its cold fields (src/unit/hotpath.c,
 * bb_unit_make_free): whatever a unit's life left in them must not reach
 * the next unit made in that descriptor. Each case marks a unit A, frees
 * it, makes the next unit B (the cache is LIFO: B is A's descriptor, which
 * the test checks), and checks that B starts clean:
 *  1. id: B gets a new id (ABT_thread_get_id of A, and of a tasklet);
 *  2. key: a value A had (ABT_thread_set_specific) is not B's;
 *  3. migration callback set on A (ABT_thread_set_callback, and through an
 *     attribute on the general path): A's migration calls it, B's does not;
 *  4. a migration of A that was served: B runs in the pool it was made for;
 *  5. cancel: A cancelled before it ran; B runs;
 *  6. A made not migratable: B is migratable;
 *  7. a stale handle: a second free of A's handle fails with
 *     ABT_ERR_INV_THREAD and leaves the cache whole (the next two creates
 *     get two different descriptors).
 * Each case runs twice: A joined before its free (the free shortcut) and A
 * freed while it waits in its pool (the general free, which runs it). */
#include "bb_test.h"

static ABT_pool pool1, pool2; /* both served by the primary ES, in this order */
static ABT_key key;
static int ran;
static ABT_pool ran_in;
static int callbacks;
static void *key_value; /* what the running unit must see for `key` */

static void body(void *arg)
{
    (void)arg;
    ran++;
    ABT_self_get_last_pool(&ran_in);
    void *v = (void *)1;
    CHECK_OK(ABT_key_get(key, &v));
    CHECK_EQ(v, key_value);
}

static void on_migrate(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
    callbacks++;
}

/* Free A as the round asks: joined first (shortcut) or straight away. */
static void free_a(ABT_thread *a, int join_first)
{
    if (join_first)
        CHECK_OK(ABT_thread_join(*a));
    CHECK_OK(ABT_thread_free(a));
}

static ABT_thread make(ABT_pool pool)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    return t;
}

/* B, checked to be in A's descriptor. */
static ABT_thread make_b(ABT_thread old_a)
{
    ABT_thread b = make(pool1);
    CHECK_EQ(b, old_a);
    return b;
}

static void finish_b(ABT_thread *b)
{
    ran = 0;
    CHECK_OK(ABT_thread_free(b));
    CHECK_EQ(ran, 1);
    CHECK_EQ(ran_in, pool1);
}

static void case_id(int join_first)
{
    ABT_thread a = make(pool1), old = a;
    ABT_unit_id id_a, id_b;
    CHECK_OK(ABT_thread_get_id(a, &id_a));
    free_a(&a, join_first);
    ABT_thread b = make_b(old);
    CHECK_OK(ABT_thread_get_id(b, &id_b));
    CHECK(id_b != id_a);
    finish_b(&b);

    ABT_task t, old_t;
    CHECK_OK(ABT_task_create(pool1, body, NULL, &t));
    old_t = t;
    CHECK_OK(ABT_task_get_id(t, &id_a));
    if (join_first)
        CHECK_OK(ABT_thread_join(t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_OK(ABT_task_create(pool1, body, NULL, &t));
    CHECK_EQ(t, old_t);
    CHECK_OK(ABT_task_get_id(t, &id_b));
    CHECK(id_b != id_a);
    CHECK_OK(ABT_task_free(&t));
}

static void case_key(int join_first)
{
    ABT_thread a = make(pool1), old = a;
    CHECK_OK(ABT_thread_set_specific(a, key, (void *)&key));
    key_value = &key; /* the control: A sees its value */
    free_a(&a, join_first);
    key_value = NULL;
    ABT_thread b = make_b(old);
    void *v = (void *)1;
    CHECK_OK(ABT_thread_get_specific(b, key, &v));
    CHECK_EQ(v, NULL);
    finish_b(&b);
}

static void case_callback(int join_first, int by_attr)
{
    ABT_thread a, old;
    if (by_attr) {
        ABT_thread_attr attr;
        CHECK_OK(ABT_thread_attr_create(&attr));
        CHECK_OK(ABT_thread_attr_set_callback(attr, on_migrate, NULL));
        CHECK_OK(ABT_thread_create(pool1, body, NULL, attr, &a));
        CHECK_OK(ABT_thread_attr_free(&attr));
    } else {
        a = make(pool1);
        CHECK_OK(ABT_thread_set_callback(a, on_migrate, NULL));
    }
    old = a;
    callbacks = 0;
    CHECK_OK(ABT_thread_migrate_to_pool(a, pool2));
    free_a(&a, join_first);
    CHECK_EQ(callbacks, 1); /* the control: A's callback works */
    CHECK_EQ(ran_in, pool2);
    ABT_thread b = make_b(old);
    CHECK_OK(ABT_thread_migrate_to_pool(b, pool2));
    ran = 0;
    CHECK_OK(ABT_thread_free(&b));
    CHECK_EQ(ran, 1);
    CHECK_EQ(callbacks, 1);
}

static void case_migrated(int join_first)
{
    ABT_thread a = make(pool1), old = a;
    CHECK_OK(ABT_thread_migrate_to_pool(a, pool2));
    free_a(&a, join_first);
    CHECK_EQ(ran_in, pool2);
    ABT_thread b = make_b(old);
    finish_b(&b);
}

static void case_cancel(int join_first)
{
    ABT_thread a = make(pool1), old = a;
    CHECK_OK(ABT_thread_cancel(a));
    ran = 0;
    free_a(&a, join_first);
    CHECK_EQ(ran, 0);
    ABT_thread b = make_b(old);
    finish_b(&b);
}

static void case_not_migratable(int join_first)
{
    ABT_thread a = make(pool1), old = a;
    ABT_bool m;
    CHECK_OK(ABT_thread_set_migratable(a, ABT_FALSE));
    CHECK_OK(ABT_thread_is_migratable(a, &m));
    CHECK_EQ(m, ABT_FALSE);
    free_a(&a, join_first);
    ABT_thread b = make_b(old);
    CHECK_OK(ABT_thread_is_migratable(b, &m));
    CHECK_EQ(m, ABT_TRUE);
    finish_b(&b);
}

static void case_stale_handle(int join_first)
{
    ABT_thread a = make(pool1), stale = a;
    free_a(&a, join_first);
    CHECK_ERR(ABT_thread_free(&stale), ABT_ERR_INV_THREAD);
    ABT_thread b = make(pool1), c = make(pool1);
    CHECK(b != c);
    CHECK_OK(ABT_thread_free(&b));
    CHECK_OK(ABT_thread_free(&c));
}

int main(void)
{
    BB_TEST_BEGIN(60);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pool1));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &pool2));
    ABT_pool pools[2] = {pool1, pool2};
    ABT_xstream self;
    CHECK_OK(ABT_self_get_xstream(&self));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 2, pools));
    CHECK_OK(ABT_key_create(NULL, &key));

    /* Warm the caches: the first units come from the general path. */
    for (int i = 0; i < 4; i++) {
        ABT_thread t = make(pool1);
        CHECK_OK(ABT_thread_free(&t));
    }
    for (int join_first = 0; join_first <= 1; join_first++) {
        case_id(join_first);
        case_key(join_first);
        case_callback(join_first, 0);
        case_callback(join_first, 1);
        case_migrated(join_first);
        case_cancel(join_first);
        case_not_migratable(join_first);
        case_stale_handle(join_first);
    }

    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
