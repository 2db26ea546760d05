/* ABT_info_query_config:
 *  - before ABT_init and after the last ABT_finalize every kind (known or
 *    not, val NULL or not) -> ABT_ERR_UNINITIALIZED, nothing written; a
 *    nested init keeps it answering until the outermost finalize;
 *  - while initialized every kind 0..27 -> ABT_SUCCESS and writes exactly the
 *    width of its type (ABT_bool / int / unsigned int: 4 bytes; size_t /
 *    uint64_t: 8 bytes, checked with canaries after the variable); booleans
 *    are exactly ABT_TRUE or ABT_FALSE;
 *  - unknown kinds (-1, 28, 1000) -> ABT_ERR_INV_QUERY_KIND with nothing
 *    written, even with val NULL; a known kind with val NULL -> ABT_ERR_INV_ARG;
 *  - each answer agrees with the environment and with behaviour:
 *    DEFAULT_THREAD_STACKSIZE is ABT_THREAD_STACKSIZE (rounded up to 64) and a
 *    new ULT's / new attribute's stack size; DEFAULT_SCHED_STACKSIZE is
 *    ABT_SCHED_STACKSIZE (rounded); MAX_NUM_XSTREAMS is ABT_MAX_NUM_XSTREAMS
 *    (default: online cores) and, as in Argobots, rises to rank + 1 once an ES
 *    with a rank beyond it is created; AFFINITY follows ABT_SET_AFFINITY (an ES is
 *    bound iff TRUE); PRINT_CONFIG follows ABT_PRINT_CONFIG (ABT_init printed
 *    the configuration iff TRUE); MIGRATION TRUE and ABT_thread_migrate works;
 *    THREAD_CANCEL / TASK_CANCEL TRUE and cancelling works; CHECK_ERROR TRUE
 *    and a NULL handle is reported; EXTERNAL_THREAD TRUE and a pthread can
 *    create a ULT and query; FCONTEXT is FALSE iff the configuration says
 *    "ucontext"; STACK_OVERFLOW_CHECK (an int) follows ABT_STACK_OVERFLOW_CHECK:
 *    unset or "mprotect" 2, "mprotect_strict" 3, anything else 0 (any case);
 *    the constants (EVENT_FREQ 50, SLEEP_NSEC 100, TOOL TRUE, STACK_UNWIND
 *    FALSE, WAIT_POLICY 0, ...) are bobbin's documented answers;
 *    LAZY_STACK_ALLOC and DYNAMIC_PROMOTION are TRUE with the default
 *    ABT_THREAD_TECHNIQUE, auto (test_technique_config has the others). */
#include "bb_test.h"
#include <pthread.h>
#include <stdint.h>

#define NKINDS 28
#define CANARY 0x5A

enum { T_BOOL, T_INT, T_UINT, T_SIZE, T_U64 };

static int kind_type(int kind)
{
    switch (kind) {
    case ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS:
        return T_UINT;
    case ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE:
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE:
        return T_SIZE;
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ:
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC:
        return T_U64;
    case ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK:
    case ABT_INFO_QUERY_KIND_WAIT_POLICY:
        return T_INT;
    default:
        return T_BOOL;
    }
}

static size_t type_width(int t)
{
    switch (t) {
    case T_SIZE:
        return sizeof(size_t);
    case T_U64:
        return sizeof(uint64_t);
    case T_UINT:
        return sizeof(unsigned int);
    case T_INT:
        return sizeof(int);
    default:
        return sizeof(ABT_bool);
    }
}

/* A variable followed by canaries: 8-byte aligned, 24 bytes in all. */
typedef union {
    uint64_t align;
    unsigned char b[24];
} slot_t;

static int canaries_from(const slot_t *s, size_t from)
{
    for (size_t i = from; i < sizeof(s->b); i++)
        if (s->b[i] != CANARY)
            return 0;
    return 1;
}

/* Query `kind`; checks the return code and that nothing beyond the kind's
 * width was written. Returns the value, widened. */
static uint64_t query(int kind)
{
    slot_t s;
    memset(s.b, CANARY, sizeof(s.b));
    int ret = ABT_info_query_config((ABT_info_query_kind)kind, s.b);
    if (ret != ABT_SUCCESS) {
        BB_FAIL_AT("kind %d returned %d, expected ABT_SUCCESS", kind, ret);
        return 0;
    }
    int t = kind_type(kind);
    size_t w = type_width(t);
    if (!canaries_from(&s, w))
        BB_FAIL_AT("kind %d wrote past its %zu-byte value", kind, w);
    uint64_t v = 0;
    switch (t) {
    case T_SIZE: {
        size_t x;
        memcpy(&x, s.b, sizeof(x));
        v = x;
        break;
    }
    case T_U64:
        memcpy(&v, s.b, sizeof(v));
        break;
    case T_UINT: {
        unsigned int x;
        memcpy(&x, s.b, sizeof(x));
        v = x;
        break;
    }
    case T_INT: {
        int x;
        memcpy(&x, s.b, sizeof(x));
        v = (uint64_t)(int64_t)x;
        break;
    }
    default: {
        ABT_bool x;
        memcpy(&x, s.b, sizeof(x));
        if (x != ABT_TRUE && x != ABT_FALSE)
            BB_FAIL_AT("kind %d: ABT_bool value %d is neither TRUE nor FALSE", kind, (int)x);
        v = (uint64_t)x;
        break;
    }
    }
    return v;
}

/* Every call fails with `code` and writes nothing. */
static void check_all_fail(int code)
{
    const int kinds[] = {-1, 0, 1, 5, 14, 16, 17, 19, 20, 25, 26, 27, 28, 1000};
    for (int k = -1; k <= NKINDS; k++) {
        slot_t s;
        memset(s.b, CANARY, sizeof(s.b));
        int ret = ABT_info_query_config((ABT_info_query_kind)k, s.b);
        if (ret != code)
            BB_FAIL_AT("kind %d returned %d, expected %d", k, ret, code);
        if (!canaries_from(&s, 0))
            BB_FAIL_AT("kind %d wrote its value although it failed", k);
    }
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        int ret = ABT_info_query_config((ABT_info_query_kind)kinds[i], NULL);
        if (ret != code)
            BB_FAIL_AT("kind %d (val NULL) returned %d, expected %d", kinds[i], ret, code);
    }
}

static void check_arg_errors(void)
{
    const int unknown[] = {-1, NKINDS, 1000, -1000};
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        slot_t s;
        memset(s.b, CANARY, sizeof(s.b));
        CHECK_ERR(ABT_info_query_config((ABT_info_query_kind)unknown[i], s.b),
                  ABT_ERR_INV_QUERY_KIND);
        CHECK(canaries_from(&s, 0));
        CHECK_ERR(ABT_info_query_config((ABT_info_query_kind)unknown[i], NULL),
                  ABT_ERR_INV_QUERY_KIND);
    }
    for (int k = 0; k < NKINDS; k++) {
        int ret = ABT_info_query_config((ABT_info_query_kind)k, NULL);
        if (ret != ABT_ERR_INV_ARG)
            BB_FAIL_AT("kind %d with val NULL returned %d, expected ABT_ERR_INV_ARG", k, ret);
    }
}

/* ---- behaviour probes ---------------------------------------------------------- */

static ABT_pool main_pool(void)
{
    ABT_xstream self;
    ABT_pool pool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    return pool;
}

static size_t seen_stacksize;
static int ran_count;

static void measure(void *arg)
{
    (void)arg;
    ABT_thread self;
    if (ABT_self_get_thread(&self) == ABT_SUCCESS)
        ABT_thread_get_stacksize(self, &seen_stacksize);
    __atomic_fetch_add(&ran_count, 1, __ATOMIC_SEQ_CST);
}

static void count(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&ran_count, 1, __ATOMIC_SEQ_CST);
}

/* A new ULT and a new attribute have the reported default stack size. */
static void check_thread_stacksize(size_t expect)
{
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE), expect);
    ABT_thread t;
    size_t got = 0;
    seen_stacksize = 0;
    CHECK_OK(ABT_thread_create(main_pool(), measure, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_get_stacksize(t, &got));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(got, expect);
    CHECK_EQ(seen_stacksize, expect);
    ABT_thread_attr attr;
    got = 0;
    CHECK_OK(ABT_thread_attr_create(&attr));
    CHECK_OK(ABT_thread_attr_get_stacksize(attr, &got));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_EQ(got, expect);
}

/* AFFINITY TRUE iff a new ES is bound to one CPU; else its set is the
 * process's (that of the primary ES, which is unbound too). */
static void check_affinity(int expect_true)
{
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_AFFINITY), expect_true ? ABT_TRUE : ABT_FALSE);
    ABT_xstream es, primary;
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_self(&primary));
    int num = 0, process_num = 0;
    CHECK_OK(ABT_xstream_get_affinity(es, 0, NULL, &num));
    CHECK_OK(ABT_xstream_get_affinity(primary, 0, NULL, &process_num));
    if (expect_true)
        CHECK_EQ(num, 1);
    else
        CHECK_EQ(num, process_num);
    CHECK_OK(ABT_xstream_free(&es));
}

/* MIGRATION TRUE: a ULT waiting in a pool nobody serves can be migrated (to
 * the primary ES) and runs. */
static void check_migration(void)
{
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION), ABT_TRUE);
    ABT_pool idle;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &idle));
    ABT_thread t;
    ran_count = 0;
    CHECK_OK(ABT_thread_create(idle, count, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_migrate(t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran_count, 1);
    CHECK_OK(ABT_pool_free(&idle));
}

/* THREAD_CANCEL / TASK_CANCEL TRUE: a READY unit cancelled never runs. */
static void check_cancel(void)
{
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_THREAD_CANCEL), ABT_TRUE);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_TASK_CANCEL), ABT_TRUE);
    ran_count = 0;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool(), count, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_cancel(t));
    CHECK_OK(ABT_thread_free(&t));
    ABT_task k;
    CHECK_OK(ABT_task_create(main_pool(), count, NULL, &k));
    CHECK_OK(ABT_task_cancel(k));
    CHECK_OK(ABT_task_free(&k));
    CHECK_EQ(ran_count, 0);
}

/* EXTERNAL_THREAD TRUE: a plain pthread may create a ULT and query. */
static ABT_pool ext_pool;
static int ext_create_ret = -1, ext_query_ret = -1;
static ABT_bool ext_answer = (ABT_bool)42;
static ABT_thread ext_thread;

static void *external(void *arg)
{
    (void)arg;
    ext_create_ret = ABT_thread_create(ext_pool, count, NULL, ABT_THREAD_ATTR_NULL, &ext_thread);
    ext_query_ret =
        ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_EXTERNAL_THREAD, &ext_answer);
    return NULL;
}

static void check_external(void)
{
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_EXTERNAL_THREAD), ABT_TRUE);
    ext_pool = main_pool();
    ran_count = 0;
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, external, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_create_ret, ABT_SUCCESS);
    CHECK_EQ(ext_query_ret, ABT_SUCCESS);
    CHECK_EQ(ext_answer, ABT_TRUE);
    if (ext_create_ret == ABT_SUCCESS)
        CHECK_OK(ABT_thread_free(&ext_thread));
    CHECK_EQ(ran_count, 1);
}

/* The constants bobbin documents (semantics5 §4.2). */
static void check_constants(void)
{
    static const struct {
        int kind;
        uint64_t value;
    } fixed[] = {
        {ABT_INFO_QUERY_KIND_ENABLED_DEBUG, ABT_FALSE},
        {ABT_INFO_QUERY_KIND_ENABLED_PRINT_ERRNO, ABT_FALSE},
        {ABT_INFO_QUERY_KIND_ENABLED_LOG, ABT_FALSE},
        {ABT_INFO_QUERY_KIND_ENABLED_VALGRIND, ABT_TRUE}, /* test_regress_query_enabled_valgrind */
        {ABT_INFO_QUERY_KIND_ENABLED_CHECK_ERROR, ABT_TRUE},
        {ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_PRODUCER, ABT_FALSE},
        {ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_CONSUMER, ABT_FALSE},
        {ABT_INFO_QUERY_KIND_ENABLED_PRESERVE_FPU, ABT_TRUE},
        {ABT_INFO_QUERY_KIND_ENABLED_STACKABLE_SCHED, ABT_TRUE},
        {ABT_INFO_QUERY_KIND_ENABLED_SCHED_SLEEP, ABT_FALSE},
        {ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ, 50},
        {ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC, 100},
        {ABT_INFO_QUERY_KIND_ENABLED_TOOL, ABT_TRUE}, /* built in: test_tool_* */
        {ABT_INFO_QUERY_KIND_DYNAMIC_PROMOTION, ABT_TRUE}, /* auto, the default */
        {ABT_INFO_QUERY_KIND_ENABLED_STACK_UNWIND, ABT_FALSE},
        {ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK, 2},
        {ABT_INFO_QUERY_KIND_WAIT_POLICY, 0},
        {ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC, ABT_TRUE}, /* auto, the default */
    };
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
        uint64_t v = query(fixed[i].kind);
        if (v != fixed[i].value)
            BB_FAIL_AT("kind %d answered %llu, expected %llu", fixed[i].kind,
                       (unsigned long long)v, (unsigned long long)fixed[i].value);
    }
    /* CHECK_ERROR TRUE: a NULL handle is caught. */
    ABT_thread_state st;
    CHECK_ERR(ABT_thread_get_state(ABT_THREAD_NULL, &st), ABT_ERR_INV_THREAD);
}

/* FCONTEXT agrees with the context switch named by the configuration. */
static void check_fcontext(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    CHECK(fp != NULL);
    if (!fp)
        return;
    CHECK_OK(ABT_info_print_config(fp));
    fclose(fp);
    int is_ucontext = text && strstr(text, "ucontext") != NULL;
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_FCONTEXT), is_ucontext ? ABT_FALSE : ABT_TRUE);
    free(text);
}

/* ---- ABT_init with stdout captured ---------------------------------------------- */

static char out[65536];

static size_t init_captured(void)
{
    return bb_test_init_captured(out, sizeof(out));
}

static void clear_env(void)
{
    const char *names[] = {"THREAD_STACKSIZE", "SCHED_STACKSIZE", "MAX_NUM_XSTREAMS",
                           "SET_AFFINITY", "PRINT_CONFIG", "STACK_OVERFLOW_CHECK",
                           "THREAD_TECHNIQUE"};
    char key[64];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(key, sizeof(key), "ABT_%s", names[i]);
        unsetenv(key);
        snprintf(key, sizeof(key), "ABT_ENV_%s", names[i]);
        unsetenv(key);
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    clear_env();
    check_all_fail(ABT_ERR_UNINITIALIZED);

    /* Run 1: every setting from the environment. */
    setenv("ABT_THREAD_STACKSIZE", "20000", 1); /* -> 20032 */
    setenv("ABT_SCHED_STACKSIZE", "1000001", 1); /* -> 1000064 */
    setenv("ABT_MAX_NUM_XSTREAMS", "3", 1);
    setenv("ABT_SET_AFFINITY", "yes", 1);
    setenv("ABT_PRINT_CONFIG", "1", 1);
    size_t printed = init_captured();
    CHECK(printed > 0);
    for (int k = 0; k < NKINDS; k++)
        (void)query(k); /* widths and return codes of every kind */
    check_arg_errors();
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_PRINT_CONFIG), ABT_TRUE);
    check_thread_stacksize(20032);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE), 1000064);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS), 3);
    check_affinity(1);
    check_constants();
    check_migration();
    check_cancel();
    check_external();
    check_fcontext();

    /* Argobots raises the limit once an ES's rank is beyond it. */
    ABT_xstream far;
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 5, &far));
    uint64_t max_now = query(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS);
    if (max_now != 6)
        BB_FAIL_AT("MAX_NUM_XSTREAMS is %llu with an ES of rank 5 alive, expected 6",
                   (unsigned long long)max_now);
    CHECK_OK(ABT_xstream_free(&far));

    /* A nested init/finalize pair keeps the runtime up. */
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_finalize());
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_MIGRATION), ABT_TRUE);
    CHECK_OK(ABT_finalize());
    check_all_fail(ABT_ERR_UNINITIALIZED);

    /* Run 2: nothing set, false-like values: the defaults. */
    clear_env();
    setenv("ABT_SET_AFFINITY", "no", 1);
    setenv("ABT_PRINT_CONFIG", "0", 1);
    CHECK_EQ(init_captured(), 0);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_PRINT_CONFIG), ABT_FALSE);
    check_thread_stacksize(16384);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE), 4 * 1024 * 1024);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS), online > 0 ? online : 1);
    check_affinity(0);
    check_constants();
    CHECK_OK(ABT_finalize());

    /* Run 3: the ABT_ENV_ spellings. */
    clear_env();
    setenv("ABT_ENV_THREAD_STACKSIZE", "32768", 1);
    setenv("ABT_ENV_MAX_NUM_XSTREAMS", "5", 1);
    setenv("ABT_ENV_PRINT_CONFIG", "yes", 1);
    setenv("ABT_ENV_STACK_OVERFLOW_CHECK", "mprotect_strict", 1);
    CHECK(init_captured() > 0);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_PRINT_CONFIG), ABT_TRUE);
    check_thread_stacksize(32768);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS), 5);
    CHECK_EQ(query(ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK), 3);
    CHECK_OK(ABT_finalize());

    /* ABT_STACK_OVERFLOW_CHECK's other values (ABT_ wins over ABT_ENV_). */
    static const struct {
        const char *value;
        int answer;
    } guards[] = {{"mprotect", 2}, {"MPROTECT", 2}, {"Mprotect_Strict", 3},
                  {"none", 0},     {"canary", 0},   {"", 0}};
    clear_env();
    setenv("ABT_ENV_STACK_OVERFLOW_CHECK", "none", 1);
    for (size_t i = 0; i < sizeof(guards) / sizeof(guards[0]); i++) {
        setenv("ABT_STACK_OVERFLOW_CHECK", guards[i].value, 1);
        CHECK_OK(ABT_init(0, NULL));
        uint64_t v = query(ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK);
        if ((int64_t)v != guards[i].answer)
            BB_FAIL_AT("ABT_STACK_OVERFLOW_CHECK=\"%s\": answered %lld, expected %d",
                       guards[i].value, (long long)(int64_t)v, guards[i].answer);
        check_thread_stacksize(16384);
        CHECK_OK(ABT_finalize());
    }
    clear_env();

    check_all_fail(ABT_ERR_UNINITIALIZED);
    BB_TEST_END();
}
