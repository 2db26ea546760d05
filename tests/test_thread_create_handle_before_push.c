/* Every create writes the new unit's handle before it pushes the unit (as
 * REFERENCE says): once pushed, the unit may run on another ES and read its
 * own handle there before the create returns. A user pool's push callback
 * sees the push as it happens, and checks the caller's handle variable
 * there, for each way of creating: ABT_thread_create with default
 * attributes (the shortcut) and with an attribute (the general path, which
 * used to write the handle only after the push), ABT_thread_create_on_xstream,
 * ABT_thread_create_many and ABT_task_create. */
#include "bb_test.h"

#define QUEUE 16

typedef struct node {
    ABT_thread thread;
} node;

static node *queue[QUEUE];
static int head, count;
static ABT_thread *watched; /* the handle the create in progress writes */
static int pushes, early_pushes;

static ABT_unit create_unit(ABT_pool pool, ABT_thread thread)
{
    (void)pool;
    node *n = malloc(sizeof(*n));
    CHECK(n != NULL);
    n->thread = thread;
    return (ABT_unit)n;
}

static void free_unit(ABT_pool pool, ABT_unit unit)
{
    (void)pool;
    free(unit);
}

static ABT_bool is_empty(ABT_pool pool)
{
    (void)pool;
    return count == 0 ? ABT_TRUE : ABT_FALSE;
}

static ABT_thread pop(ABT_pool pool, ABT_pool_context context)
{
    (void)pool;
    (void)context;
    if (count == 0)
        return ABT_THREAD_NULL;
    node *n = queue[head];
    head = (head + 1) % QUEUE;
    count--;
    return n->thread;
}

static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context context)
{
    (void)pool;
    (void)context;
    node *n = (node *)unit;
    pushes++;
    if (watched && *watched != n->thread)
        early_pushes++;
    CHECK(count < QUEUE);
    queue[(head + count) % QUEUE] = n;
    count++;
}

static void body(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool_user_def def;
    CHECK_OK(ABT_pool_user_def_create(create_unit, free_unit, is_empty, pop, push, &def));
    ABT_pool pool;
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &pool));
    CHECK_OK(ABT_pool_user_def_free(&def)); /* the pool has its copy */
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &pool));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));

    ABT_thread t[5] = {ABT_THREAD_NULL};
    ABT_task task = ABT_TASK_NULL;
    void (*funcs[1])(void *) = {body};
    pushes = 0; /* the main ULT may have gone through the pool */
    watched = &t[0];
    CHECK_OK(ABT_thread_create(pool, body, NULL, ABT_THREAD_ATTR_NULL, &t[0]));
    watched = &t[1];
    CHECK_OK(ABT_thread_create(pool, body, NULL, attr, &t[1]));
    watched = &t[2];
    CHECK_OK(ABT_thread_create_on_xstream(self, body, NULL, attr, &t[2]));
    watched = &t[3];
    CHECK_OK(ABT_thread_create_many(1, &pool, funcs, NULL, attr, &t[3]));
    watched = &t[4];
    CHECK_OK(ABT_thread_create_on_xstream(self, body, NULL, ABT_THREAD_ATTR_NULL, &t[4]));
    watched = (ABT_thread *)&task;
    CHECK_OK(ABT_task_create(pool, body, NULL, &task));
    watched = NULL;
    CHECK_EQ(pushes, 6);
    CHECK_EQ(early_pushes, 0);

    for (int i = 0; i < 5; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_task_free(&task));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
