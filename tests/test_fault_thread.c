/* Allocation failure inside ULT and tasklet creation (issue #5):
 * ABT_thread_create (named, unnamed, with a stack-size attribute, with a user
 * stack), ABT_thread_create_on_xstream and ABT_task_create (named, unnamed).
 * For every k the call returns ABT_ERR_MEM (or ABT_ERR_SYS) with *newthread =
 * NULL, nothing runs, nothing leaks, and units can be created and run after.
 * The runtime is rebuilt for each k so that the descriptor and stack caches
 * are cold and every create reaches the system allocator. */
#include "fault_inject.h"

#define USER_STACK_SIZE (64 * 1024)

static ABT_pool g_pool;
static ABT_xstream g_es;
static ABT_thread_attr g_attr;
static void *g_user_stack;
static int g_ran;

static void body(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&g_ran, 1, __ATOMIC_RELAXED);
}

static void setup_basic(void)
{
    g_pool = fi_main_pool();
    g_ran = 0;
}

static void setup_es(void)
{
    setup_basic();
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &g_es));
}

static void teardown_es(void)
{
    CHECK_OK(ABT_xstream_join(g_es));
    CHECK_OK(ABT_xstream_free(&g_es));
}

static void setup_attr_stacksize(void)
{
    setup_basic();
    CHECK_OK(ABT_thread_attr_create(&g_attr));
    CHECK_OK(ABT_thread_attr_set_stacksize(g_attr, 40 * 1024));
}

static void setup_attr_user_stack(void)
{
    setup_basic();
    CHECK_EQ(posix_memalign(&g_user_stack, 64, USER_STACK_SIZE), 0);
    CHECK_OK(ABT_thread_attr_create(&g_attr));
    CHECK_OK(ABT_thread_attr_set_stack(g_attr, g_user_stack, USER_STACK_SIZE));
}

static void teardown_attr(void)
{
    CHECK_OK(ABT_thread_attr_free(&g_attr));
    free(g_user_stack);
    g_user_stack = NULL;
}

static int create_thread(void **out)
{
    return ABT_thread_create(g_pool, body, NULL, ABT_THREAD_ATTR_NULL, (ABT_thread *)out);
}

static int create_thread_unnamed(void **out)
{
    (void)out;
    return ABT_thread_create(g_pool, body, NULL, ABT_THREAD_ATTR_NULL, NULL);
}

static int create_thread_attr(void **out)
{
    return ABT_thread_create(g_pool, body, NULL, g_attr, (ABT_thread *)out);
}

static int create_on_xstream(void **out)
{
    return ABT_thread_create_on_xstream(g_es, body, NULL, ABT_THREAD_ATTR_NULL,
                                        (ABT_thread *)out);
}

static int create_task(void **out)
{
    return ABT_task_create(g_pool, body, NULL, (ABT_task *)out);
}

static int create_task_unnamed(void **out)
{
    (void)out;
    return ABT_task_create(g_pool, body, NULL, NULL);
}

static void destroy_thread(void **out)
{
    ABT_thread t = (ABT_thread)*out;
    CHECK(t != ABT_THREAD_NULL);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(g_ran, 1);
}

static void destroy_unnamed(void **out)
{
    (void)out;
    while (__atomic_load_n(&g_ran, __ATOMIC_RELAXED) == 0)
        ABT_thread_yield();
}

/* A failed create must not have queued anything: after yielding, nothing ran. */
static void check_nothing_ran(void)
{
    for (int i = 0; i < 4; i++)
        CHECK_OK(ABT_thread_yield());
    size_t size = 99;
    CHECK_OK(ABT_pool_get_total_size(g_pool, &size));
    CHECK_EQ(size, 0);
    CHECK_EQ(g_ran, 0);
}

static void use_thread(void)
{
    ABT_thread t;
    g_ran = 0;
    CHECK_OK(ABT_thread_create(g_pool, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(g_ran, 1);
    fi_workload();
}

static void use_thread_attr(void)
{
    ABT_thread t;
    g_ran = 0;
    CHECK_OK(ABT_thread_create(g_pool, body, NULL, g_attr, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(g_ran, 1);
}

static void use_on_xstream(void)
{
    ABT_thread t;
    g_ran = 0;
    CHECK_OK(ABT_thread_create_on_xstream(g_es, body, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(g_ran, 1);
}

static void use_task(void)
{
    ABT_task t;
    g_ran = 0;
    CHECK_OK(ABT_task_create(g_pool, body, NULL, &t));
    CHECK_OK(ABT_task_free(&t));
    CHECK_EQ(g_ran, 1);
    fi_workload();
}

/* ABT_thread_create / ABT_task_create called by an external thread (no ES:
 * the allocation goes through the shared depot instead of an ES's cache).
 * The worker arms its own counter (the counter is per thread). */
struct ext_try {
    long k;
    int task;
    int rc;
    long fired;
    ABT_thread out;
};

static void *ext_worker(void *arg)
{
    struct ext_try *x = arg;
    x->out = (ABT_thread)FI_SENTINEL;
    fi_arm(x->k, 0);
    if (x->task)
        x->rc = ABT_task_create(g_pool, body, NULL, (ABT_task *)&x->out);
    else
        x->rc = ABT_thread_create(g_pool, body, NULL, ABT_THREAD_ATTR_NULL, &x->out);
    x->fired = fi_disarm();
    return NULL;
}

static void sweep_external(int task)
{
    const char *name = task ? "ABT_task_create(external thread)"
                            : "ABT_thread_create(external thread)";
    long points = 0;
    for (long k = 1; k < 1000; k++) {
        CHECK_OK(ABT_init(0, NULL));
        setup_basic();
        struct ext_try x = {.k = k, .task = task};
        pthread_t th;
        CHECK_EQ(pthread_create(&th, NULL, ext_worker, &x), 0);
        CHECK_EQ(pthread_join(th, NULL), 0);
        if (x.rc == ABT_SUCCESS) {
            CHECK(x.out != ABT_THREAD_NULL);
            CHECK_OK(ABT_thread_free(&x.out));
        } else {
            if (x.rc != ABT_ERR_MEM && x.rc != ABT_ERR_SYS)
                BB_FAIL_AT("%s k=%ld: returned %d", name, k, x.rc);
            if (x.out != ABT_THREAD_NULL)
                BB_FAIL_AT("%s k=%ld: *out = %p on error", name, k, (void *)x.out);
            check_nothing_ran();
        }
        use_thread();
        CHECK_OK(ABT_finalize());
        CHECK_EQ(fi_live_mappings(), 0);
        if (!x.fired)
            break;
        points++;
    }
    printf("%s: %ld failure point(s)\n", name, points);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    fi_begin();
    fi_case cases[] = {
        {.name = "ABT_thread_create", .out_rule = FI_OUT_NULL, .setup = setup_basic,
         .create = create_thread, .destroy = destroy_thread,
         .check_failed = check_nothing_ran, .use = use_thread},
        {.name = "ABT_thread_create(unnamed)", .out_rule = FI_OUT_NONE, .setup = setup_basic,
         .create = create_thread_unnamed, .destroy = destroy_unnamed,
         .check_failed = check_nothing_ran, .use = use_thread},
        {.name = "ABT_thread_create(attr stacksize)", .out_rule = FI_OUT_NULL,
         .setup = setup_attr_stacksize, .create = create_thread_attr,
         .destroy = destroy_thread, .check_failed = check_nothing_ran,
         .use = use_thread_attr, .teardown = teardown_attr},
        {.name = "ABT_thread_create(attr user stack)", .out_rule = FI_OUT_NULL,
         .setup = setup_attr_user_stack, .create = create_thread_attr,
         .destroy = destroy_thread, .check_failed = check_nothing_ran,
         .use = use_thread_attr, .teardown = teardown_attr},
        {.name = "ABT_thread_create_on_xstream", .out_rule = FI_OUT_NULL, .setup = setup_es,
         .create = create_on_xstream, .destroy = destroy_thread, .use = use_on_xstream,
         .teardown = teardown_es},
        {.name = "ABT_task_create", .out_rule = FI_OUT_NULL, .setup = setup_basic,
         .create = create_task, .destroy = destroy_thread, .check_failed = check_nothing_ran,
         .use = use_task},
        {.name = "ABT_task_create(unnamed)", .out_rule = FI_OUT_NONE, .setup = setup_basic,
         .create = create_task_unnamed, .destroy = destroy_unnamed,
         .check_failed = check_nothing_ran, .use = use_task},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        fi_sweep(&cases[i]);
    sweep_external(0);
    sweep_external(1);
    BB_TEST_END();
}
