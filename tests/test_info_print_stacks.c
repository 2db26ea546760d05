/* ABT_info_print_thread_stack and ABT_info_print_thread_stacks_in_pool:
 *  - a READY ULT that never ran, on a user-given stack: the stack line gives
 *    exactly that stack's bounds and size and says it has not started;
 *    there is no hex dump (nothing is on it before its first run);
 *  - a ULT that ran and is READY again (after a yield), and a ULT BLOCKED on
 *    a mutex: the stack line agrees with ABT_thread_get_stacksize and holds
 *    an address the ULT took of its own local, the dump lines stay inside the
 *    stack, start at or below that local, and show the magic words the ULT
 *    keeps there;
 *  - a tasklet: "no stack", no dump; the primary ULT: "no stack" (it has no
 *    stack of its own), no dump;
 *  - stacks_in_pool on the primary's main pool with 3 queued ULTs, a ULT
 *    blocked on a mutex and the running primary: exactly the 3 queued ones,
 *    in FIFO order (by id), each with its stack; a queued tasklet shows as a
 *    tasklet with no stack; a user pool with print_all lists its queued
 *    ULTs; a user pool without print_all -> ABT_ERR_POOL, nothing printed;
 *  - with ABT_PRINT_RAW_STACK (or ABT_ENV_PRINT_RAW_STACK) set to a false
 *    value at ABT_init (Argobots' spellings: 0, n, no, false, off, any case)
 *    the stack lines stay, the dumps go; a true value keeps the dumps;
 *  - NULL thread -> ABT_ERR_INV_THREAD, NULL pool -> ABT_ERR_INV_POOL (before
 *    the FILE * check, with or without init), NULL FILE * -> ABT_ERR_INV_ARG.
 * Also run under ASan: the dump reads other ULTs' stacks. */
#include "capture_util.h"
#include "pool_user_util.h"
#include <stdint.h>

#define MAGIC_READY 0x0123456789abcdefULL
#define MAGIC_BLOCKED 0xfedcba9876543210ULL

/* ---- capturing and parsing -------------------------------------------------------- */

typedef struct {
    int nstack;               /* "stack LOW-HIGH (SIZE bytes)" lines */
    uintptr_t low, high;      /* of the first one */
    size_t size;
    int ndump;                /* hex dump lines ("ADDR: w w w w") */
    uintptr_t first_dump;     /* address of the first */
    int bad_dump;             /* dump lines outside [low, high) or misaligned */
    int nostack;              /* lines saying "no stack" */
} stack_info;

/* Parses the text of one unit's stack (or of a pool's stacks, where every
 * dump line is checked against the stack line before it). */
/* How many of `n` ULTs that never ran have a stack to print: none when
 * ULTs get their stack at their first run (ABT_THREAD_TECHNIQUE=full-l...). */
static int unstarted_with_stack(int n)
{
    ABT_bool lazy = ABT_FALSE;
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC, &lazy));
    return lazy ? 0 : n;
}

static stack_info parse(const char *text)
{
    stack_info s;
    memset(&s, 0, sizeof(s));
    uintptr_t low = 0, high = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        const char *p = line;
        while (*p == ' ')
            p++;
        void *lo = NULL, *hi = NULL;
        size_t size = 0;
        if (strncmp(p, "no stack", 8) == 0) {
            s.nostack++;
            low = high = 0;
        } else if (sscanf(p, "stack %p-%p (%zu bytes)", &lo, &hi, &size) == 3) {
            low = (uintptr_t)lo;
            high = (uintptr_t)hi;
            if (s.nstack++ == 0) {
                s.low = low;
                s.high = high;
                s.size = size;
            }
        } else if (strncmp(p, "0x", 2) == 0) {
            char *after;
            uintptr_t addr = (uintptr_t)strtoull(p, &after, 16);
            if (*after == ':') {
                if (s.ndump++ == 0)
                    s.first_dump = addr;
                if (addr < low || addr + 32 > high || (addr - low) % 32 != 0) {
                    fprintf(stderr, "dump line outside [%#lx, %#lx): %.60s\n",
                            (unsigned long)low, (unsigned long)high, p);
                    s.bad_dump++;
                }
            }
        }
        line = end ? end + 1 : NULL;
    }
    return s;
}

static int has_word(const char *text, unsigned long long w)
{
    char hex[20];
    snprintf(hex, sizeof(hex), "%016llx", w);
    return strstr(text, hex) != NULL;
}

/* ---- the ULTs -------------------------------------------------------------------- */

static ABT_mutex mtx;
static volatile int stop_yielding;
static volatile uint64_t *ready_local, *blocked_local;

static void noop(void *arg)
{
    (void)arg;
}

/* Keeps MAGIC_READY on its stack and yields until told to stop. */
static void yielder(void *arg)
{
    (void)arg;
    volatile uint64_t words[4] = {MAGIC_READY, MAGIC_READY, MAGIC_READY, MAGIC_READY};
    ready_local = words;
    while (!stop_yielding)
        ABT_thread_yield();
    ready_local = NULL;
}

/* Keeps MAGIC_BLOCKED on its stack while it waits for the mutex. */
static void locker(void *arg)
{
    (void)arg;
    volatile uint64_t words[4] = {MAGIC_BLOCKED, MAGIC_BLOCKED, MAGIC_BLOCKED, MAGIC_BLOCKED};
    blocked_local = words;
    ABT_mutex_lock(mtx);
    ABT_mutex_unlock(mtx);
    blocked_local = NULL;
}

static ABT_pool main_pool(void)
{
    ABT_xstream self;
    ABT_pool pool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    return pool;
}

/* Yields until t is in state `want` (or gives up). */
static void wait_state(ABT_thread t, ABT_thread_state want)
{
    ABT_thread_state st = (ABT_thread_state)-1;
    for (int i = 0; i < 1000; i++) {
        CHECK_OK(ABT_thread_get_state(t, &st));
        if (st == want)
            return;
        CHECK_OK(ABT_thread_yield());
    }
    BB_FAIL_AT("state %d never reached (last %d)", (int)want, (int)st);
}

/* Moves every unit of an unscheduled built-in pool to the primary's pool. */
static void drain_to_main(ABT_pool pool)
{
    ABT_unit u = ABT_UNIT_NULL;
    while (ABT_pool_pop(pool, &u) == ABT_SUCCESS && u != ABT_UNIT_NULL) {
        CHECK_OK(ABT_pool_push(main_pool(), u));
        u = ABT_UNIT_NULL;
    }
}

/* ---- the checks -------------------------------------------------------------------- */

static char user_stack[65536] __attribute__((aligned(4096)));

static void check_user_stack_ready(void)
{
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_set_stack(attr, user_stack, sizeof(user_stack)));
    ABT_thread t;
    CHECK_OK(ABT_thread_create(idle, noop, NULL, attr, &t));
    CHECK_OK(ABT_thread_attr_free(&attr));

    char *text;
    CAPTURE(text, ABT_info_print_thread_stack(fp, t));
    stack_info s = parse(text);
    CHECK_EQ(s.nstack, 1);
    CHECK_EQ(s.nostack, 0);
    CHECK(s.low == (uintptr_t)user_stack);
    CHECK(s.high == (uintptr_t)user_stack + sizeof(user_stack));
    CHECK_EQ(s.size, sizeof(user_stack));
    CHECK(strstr(text, "not started: nothing on it yet") != NULL);
    CHECK_EQ(s.ndump, 0); /* it starts on its stack at its first run */
    free(text);
    CHECK_ERR(ABT_info_print_thread_stack(NULL, t), ABT_ERR_INV_ARG);

    drain_to_main(idle);
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_pool_free(&idle));
}

/* The common checks for a ULT that ran and keeps `magic` at `local`. */
static void check_live_stack(ABT_thread t, const char *text, volatile uint64_t *local,
                             unsigned long long magic)
{
    stack_info s = parse(text);
    size_t size = 0;
    CHECK_OK(ABT_thread_get_stacksize(t, &size));
    CHECK_EQ(s.nstack, 1);
    CHECK_EQ(s.nostack, 0);
    CHECK_EQ(s.size, size);
    CHECK_EQ(s.high - s.low, size);
    CHECK(local != NULL);
    CHECK((uintptr_t)local >= s.low && (uintptr_t)local < s.high);
    CHECK(s.ndump >= 1);
    CHECK_EQ(s.bad_dump, 0);
    CHECK(s.first_dump <= (uintptr_t)local);
    CHECK(has_word(text, magic));
}

static void check_ready_and_blocked(void)
{
    /* READY again after running. */
    stop_yielding = 0;
    ABT_thread y;
    CHECK_OK(ABT_thread_create(main_pool(), yielder, NULL, ABT_THREAD_ATTR_NULL, &y));
    for (int i = 0; i < 1000 && !ready_local; i++)
        CHECK_OK(ABT_thread_yield());
    ABT_thread_state st;
    CHECK_OK(ABT_thread_get_state(y, &st));
    CHECK_EQ(st, ABT_THREAD_STATE_READY);
    char *text;
    CAPTURE(text, ABT_info_print_thread_stack(fp, y));
    check_live_stack(y, text, ready_local, MAGIC_READY);
    free(text);

    /* BLOCKED on a mutex. */
    CHECK_OK(ABT_mutex_create(&mtx));
    CHECK_OK(ABT_mutex_lock(mtx));
    ABT_thread b;
    CHECK_OK(ABT_thread_create(main_pool(), locker, NULL, ABT_THREAD_ATTR_NULL, &b));
    wait_state(b, ABT_THREAD_STATE_BLOCKED);
    CAPTURE(text, ABT_info_print_thread_stack(fp, b));
    check_live_stack(b, text, blocked_local, MAGIC_BLOCKED);
    CHECK(!has_word(text, MAGIC_READY)); /* its own stack, not the other one */
    free(text);

    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_thread_free(&b));
    stop_yielding = 1;
    CHECK_OK(ABT_thread_free(&y));
    CHECK_OK(ABT_mutex_free(&mtx));
}

static void check_no_stack(void)
{
    /* A tasklet. */
    ABT_task k;
    CHECK_OK(ABT_task_create(main_pool(), noop, NULL, &k));
    char *text;
    CAPTURE(text, ABT_info_print_thread_stack(fp, k));
    stack_info s = parse(text);
    CHECK_EQ(s.nostack, 1);
    CHECK_EQ(s.nstack, 0);
    CHECK_EQ(s.ndump, 0);
    free(text);
    CHECK_OK(ABT_task_free(&k));

    /* The primary ULT, which runs on its OS thread's stack. */
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    CAPTURE(text, ABT_info_print_thread_stack(fp, self));
    s = parse(text);
    CHECK_EQ(s.nostack, 1);
    CHECK_EQ(s.nstack, 0);
    CHECK_EQ(s.ndump, 0);
    free(text);
}

/* The "(id N)" of a unit in the text: the offset of its first appearance, or -1. */
static long id_pos(const char *text, ABT_thread t)
{
    ABT_unit_id id = 0;
    CHECK_OK(ABT_thread_get_id(t, &id));
    char want[64];
    snprintf(want, sizeof(want), "(id %llu)", (unsigned long long)id);
    const char *at = strstr(text, want);
    return at ? (long)(at - text) : -1;
}

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    size_t nl = strlen(needle);
    for (const char *p = strstr(text, needle); p; p = strstr(p + nl, needle))
        n++;
    return n;
}

static void check_pool_walk(void)
{
    ABT_pool pool = main_pool();
    CHECK_OK(ABT_mutex_create(&mtx));
    CHECK_OK(ABT_mutex_lock(mtx));
    ABT_thread b, r[3];
    CHECK_OK(ABT_thread_create(pool, locker, NULL, ABT_THREAD_ATTR_NULL, &b));
    wait_state(b, ABT_THREAD_STATE_BLOCKED);
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_create(pool, noop, NULL, ABT_THREAD_ATTR_NULL, &r[i]));
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 3);

    char *text;
    CAPTURE(text, ABT_info_print_thread_stacks_in_pool(fp, pool));
    CHECK_EQ(count_of(text, "ULT "), 3);
    CHECK_EQ(count_of(text, "tasklet 0x"), 0);
    long prev = -1;
    for (int i = 0; i < 3; i++) {
        long at = id_pos(text, r[i]);
        CHECK(at > prev);
        prev = at;
    }
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    CHECK_EQ(id_pos(text, b), -1);    /* blocked: in no pool */
    CHECK_EQ(id_pos(text, self), -1); /* running */
    stack_info s = parse(text);
    CHECK_EQ(s.nstack, unstarted_with_stack(3));
    CHECK_EQ(s.nostack, 3 - unstarted_with_stack(3));
    CHECK_EQ(count_of(text, "not started: nothing on it yet"), 3); /* nothing to dump */
    CHECK_EQ(s.ndump, 0);
    CHECK(!has_word(text, MAGIC_BLOCKED));
    free(text);
    CHECK_ERR(ABT_info_print_thread_stacks_in_pool(NULL, pool), ABT_ERR_INV_ARG);

    /* The walk changed nothing. */
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 3);
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_thread_free(&b));
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&r[i]));
    CHECK_OK(ABT_mutex_free(&mtx));

    /* An empty pool: a header, no unit. */
    CAPTURE(text, ABT_info_print_thread_stacks_in_pool(fp, pool));
    CHECK_EQ(count_of(text, "ULT "), 0);
    free(text);

    /* A tasklet among ULTs, in a pool nobody serves. */
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    ABT_thread u1, u2;
    ABT_task k;
    CHECK_OK(ABT_thread_create(idle, noop, NULL, ABT_THREAD_ATTR_NULL, &u1));
    CHECK_OK(ABT_task_create(idle, noop, NULL, &k));
    CHECK_OK(ABT_thread_create(idle, noop, NULL, ABT_THREAD_ATTR_NULL, &u2));
    CAPTURE(text, ABT_info_print_thread_stacks_in_pool(fp, idle));
    CHECK_EQ(count_of(text, "ULT "), 2);
    CHECK_EQ(count_of(text, "tasklet 0x"), 1);
    CHECK(id_pos(text, u1) >= 0 && id_pos(text, u1) < id_pos(text, k));
    CHECK(id_pos(text, k) < id_pos(text, u2));
    s = parse(text);
    CHECK_EQ(s.nstack, unstarted_with_stack(2));
    CHECK_EQ(s.nostack, 3 - unstarted_with_stack(2));
    CHECK_EQ(s.bad_dump, 0);
    free(text);
    drain_to_main(idle);
    CHECK_OK(ABT_thread_free(&u1));
    CHECK_OK(ABT_thread_free(&u2));
    CHECK_OK(ABT_task_free(&k));
    CHECK_OK(ABT_pool_free(&idle));
}

static void check_user_pools(void)
{
    /* Without print_all: ABT_ERR_POOL, nothing printed. */
    static up_state bare_state;
    up_state_init(&bare_state);
    ABT_pool_user_def def = up_new_def(0);
    ABT_pool bare;
    CHECK_OK(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &bare));
    CHECK_OK(ABT_pool_set_data(bare, &bare_state));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_FAILS_SILENTLY(ABT_info_print_thread_stacks_in_pool(fp, bare), ABT_ERR_POOL);
    CHECK_OK(ABT_pool_free(&bare));

    /* With print_all: its queued ULTs, through the callback. */
    static up_state full_state;
    up_state_init(&full_state);
    ABT_pool_config cfg = up_config(&full_state, -1);
    def = up_new_def(1);
    ABT_pool full;
    CHECK_OK(ABT_pool_create(def, cfg, &full));
    CHECK_OK(ABT_pool_user_def_free(&def));
    CHECK_OK(ABT_pool_config_free(&cfg));
    ABT_thread t[2];
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_create(full, noop, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    char *text;
    CAPTURE(text, ABT_info_print_thread_stacks_in_pool(fp, full));
    CHECK(atomic_load(&full_state.n_print) >= 1);
    CHECK_EQ(count_of(text, "ULT "), 2);
    CHECK(id_pos(text, t[0]) >= 0 && id_pos(text, t[0]) < id_pos(text, t[1]));
    stack_info s = parse(text);
    CHECK_EQ(s.nstack, unstarted_with_stack(2));
    CHECK_EQ(s.bad_dump, 0);
    free(text);

    /* Let an ES run them. */
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &full, ABT_SCHED_CONFIG_NULL, &es));
    for (int i = 0; i < 2; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_pool_free(&full));
    CHECK_EQ(atomic_load(&up_g.n_misuse), 0);
}

static void check_null_handles(void)
{
    CHECK_FAILS_SILENTLY(ABT_info_print_thread_stack(fp, ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_FAILS_SILENTLY(ABT_info_print_thread_stack(fp, ABT_TASK_NULL), ABT_ERR_INV_THREAD);
    CHECK_FAILS_SILENTLY(ABT_info_print_thread_stacks_in_pool(fp, ABT_POOL_NULL),
                         ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_info_print_thread_stack(NULL, ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_info_print_thread_stacks_in_pool(NULL, ABT_POOL_NULL), ABT_ERR_INV_POOL);
}

/* ABT_PRINT_RAW_STACK (read at ABT_init) set to `value` under `name`: the
 * stack lines, and the dumps only if `dump`. */
static void check_raw_dump_env(const char *name, const char *value, int dump)
{
    unsetenv("ABT_PRINT_RAW_STACK");
    unsetenv("ABT_ENV_PRINT_RAW_STACK");
    setenv(name, value, 1);
    CHECK_OK(ABT_init(0, NULL));
    /* A ULT that ran and waits in the pool again: its stack has frames. */
    stop_yielding = 0;
    ready_local = NULL;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool(), yielder, NULL, ABT_THREAD_ATTR_NULL, &t));
    for (int i = 0; i < 1000 && !ready_local; i++)
        CHECK_OK(ABT_thread_yield());
    CHECK(ready_local != NULL);

    char *text;
    CAPTURE(text, ABT_info_print_thread_stack(fp, t));
    stack_info s = parse(text);
    CHECK_EQ(s.nstack, 1);
    if (dump ? s.ndump == 0 : s.ndump != 0)
        BB_FAIL_AT("%s=%s: %d dump lines from print_thread_stack", name, value, s.ndump);
    if (!dump)
        CHECK(strstr(text, "\n*\n") == NULL);
    free(text);
    CAPTURE(text, ABT_info_print_thread_stacks_in_pool(fp, main_pool()));
    s = parse(text);
    CHECK_EQ(s.nstack, 1);
    if (dump ? s.ndump == 0 : s.ndump != 0)
        BB_FAIL_AT("%s=%s: %d dump lines from print_thread_stacks_in_pool", name, value,
                   s.ndump);
    free(text);

    stop_yielding = 1;
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_finalize());
    unsetenv(name);
}

static void check_raw_dump_envs(void)
{
    const char *off[] = {"0", "n", "N", "no", "No", "false", "FALSE", "off", "OFF"};
    for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
        check_raw_dump_env("ABT_PRINT_RAW_STACK", off[i], 0);
    check_raw_dump_env("ABT_ENV_PRINT_RAW_STACK", "0", 0);
    const char *on[] = {"1", "y", "yes", "true", "on"};
    for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++)
        check_raw_dump_env("ABT_PRINT_RAW_STACK", on[i], 1);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    unsetenv("ABT_PRINT_RAW_STACK");
    unsetenv("ABT_ENV_PRINT_RAW_STACK");
    check_null_handles();

    CHECK_OK(ABT_init(0, NULL));
    check_null_handles();
    check_user_stack_ready();
    check_ready_and_blocked();
    check_no_stack();
    check_pool_walk();
    check_user_pools();
    CHECK_OK(ABT_finalize());

    check_raw_dump_envs();
    check_null_handles();
    BB_TEST_END();
}
