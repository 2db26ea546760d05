/* ABT_info_trigger_print_all_thread_stacks, called from a signal handler,
 * makes the schedulers stop and print every ULT waiting in their pools
 * (once per pool), then calls the callback with forced = ABT_FALSE; it can
 * be triggered again afterwards. When an ES does not reach its scheduler in
 * time (a ULT keeps it busy), the dump goes ahead after the timeout and the
 * callback gets forced = ABT_TRUE. A pool that two ESs share is printed
 * once. Errors: before ABT_init and after
 * ABT_finalize -> ABT_ERR_UNINITIALIZED (even with a NULL fp); a NULL fp ->
 * ABT_ERR_INV_ARG, and no request is left armed (the dumps that follow
 * still happen). */
#include "bb_test.h"
#include <signal.h>
#include <string.h>

static FILE *out;
static double timeout_s;
/* Shared between the callback, ULTs on ES 1 and the primary ULT: atomic. */
static int dumps;
static ABT_bool last_forced;
static int stop_busy;

static void dumped(ABT_bool forced, void *arg)
{
    CHECK(arg == &dumps);
    __atomic_store_n(&last_forced, forced, __ATOMIC_RELAXED);
    __atomic_fetch_add(&dumps, 1, __ATOMIC_RELEASE);
}

static void on_signal(int sig)
{
    (void)sig;
    ABT_info_trigger_print_all_thread_stacks(out, timeout_s, dumped, (void *)&dumps);
}

static void yield_until_dumped(void *arg)
{
    int goal = (int)(long)arg;
    while (__atomic_load_n(&dumps, __ATOMIC_ACQUIRE) < goal)
        ABT_thread_yield();
}

static void busy(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&stop_busy, __ATOMIC_RELAXED))
        ; /* never returns to its scheduler */
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)); p++)
        n++;
    return n;
}

/* Trigger, wait for the callback, and return what was printed. */
static char *dump_once(ABT_pool pool, int goal, size_t *len)
{
    char *text = NULL;
    out = open_memstream(&text, len);
    CHECK(out != NULL);
    ABT_thread t[3];
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_create(pool, yield_until_dumped, (void *)(long)goal,
                                   ABT_THREAD_ATTR_NULL, &t[i]));
    raise(SIGUSR1);
    while (__atomic_load_n(&dumps, __ATOMIC_ACQUIRE) < goal)
        CHECK_OK(ABT_thread_yield());
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    fclose(out);
    return text;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    CHECK_ERR(ABT_info_trigger_print_all_thread_stacks(stdout, 1.0, dumped, (void *)&dumps),
              ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_info_trigger_print_all_thread_stacks(NULL, 1.0, NULL, NULL),
              ABT_ERR_UNINITIALIZED);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_ERR(ABT_info_trigger_print_all_thread_stacks(NULL, -1, dumped, (void *)&dumps),
              ABT_ERR_INV_ARG);
    signal(SIGUSR1, on_signal);
    ABT_xstream es;
    ABT_pool pool;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool));

    size_t len;
    timeout_s = -1; /* wait for every ES */
    for (int round = 1; round <= 2; round++) {
        char *text = dump_once(pool, round, &len);
        CHECK(strstr(text, "start of the stack dump") != NULL);
        CHECK(strstr(text, "end of the stack dump") != NULL);
        /* The 3 ULTs of ES 1's pool, plus maybe the primary ULT in ES 0's. */
        CHECK(count(text, "ULT 0x") >= 3);
        CHECK_EQ(__atomic_load_n(&last_forced, __ATOMIC_RELAXED), ABT_FALSE);
        free(text);
    }

    /* ES 2 shares ES 1's pool: the dump prints that pool once. */
    ABT_xstream es2;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &pool, ABT_SCHED_CONFIG_NULL, &es2));
    {
        char *text = dump_once(pool, 3, &len);
        int ults = count(text, "ULT 0x");
        CHECK(ults >= 3 && ults <= 4); /* 6 or more: the pool twice */
        free(text);
    }
    CHECK_OK(ABT_xstream_free(&es2));

    /* ES 1 kept busy: the dump goes ahead without it. */
    ABT_thread hog;
    CHECK_OK(ABT_thread_create(pool, busy, NULL, ABT_THREAD_ATTR_NULL, &hog));
    usleep(20000);
    timeout_s = 0.05;
    char *text = NULL;
    out = open_memstream(&text, &len);
    raise(SIGUSR1);
    while (__atomic_load_n(&dumps, __ATOMIC_ACQUIRE) < 4)
        CHECK_OK(ABT_thread_yield());
    fclose(out);
    CHECK_EQ(__atomic_load_n(&last_forced, __ATOMIC_RELAXED), ABT_TRUE);
    CHECK(strstr(text, "only 1 of 2 execution streams stopped") != NULL);
    free(text);
    __atomic_store_n(&stop_busy, 1, __ATOMIC_RELAXED);
    CHECK_OK(ABT_thread_free(&hog));

    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_finalize());
    CHECK_ERR(ABT_info_trigger_print_all_thread_stacks(stdout, 1.0, dumped, (void *)&dumps),
              ABT_ERR_UNINITIALIZED);
    CHECK_EQ(__atomic_load_n(&dumps, __ATOMIC_ACQUIRE), 4); /* no callback for the refused */
    BB_TEST_END();
}
