/* The object printers ABT_info_print_config / _all_xstreams / _xstream /
 * _sched / _pool / _thread / _task / _thread_attr:
 *  - each writes a non-empty text ending in a newline and flushes it itself
 *    (an open_memstream buffer is filled before fclose), also into a
 *    tmpfile();
 *  - config: shows the version and the ABT_THREAD_STACKSIZE in force;
 *  - all xstreams (ESs created with ranks 3 then 1): 0, 1, 3 in rank order,
 *    each ES once (by address), one PRIMARY; also from a plain pthread;
 *  - xstream: its rank, type, state (RUNNING, TERMINATED after a join), and
 *    not its scheduler's pools;
 *  - sched: kind, use (NOT_USED / MAIN), number of pools, and each pool as a
 *    nested, further-indented block, in order (by pool id);
 *  - pool: id, access, size and empty right when empty and with 3 queued ULTs;
 *  - thread: ULT / tasklet header with the id ABT_thread_get_id gives, type,
 *    and state READY, RUNNING, BLOCKED (on a mutex), TERMINATED (joined, not
 *    freed); print_thread takes tasklets and print_task takes ULTs;
 *  - thread attr: one line with the stack address, stack size, migratable
 *    flag and callback argument; it still prints after ABT_finalize (the
 *    attribute outlives the runtime; the printers need no init);
 *  - errors: a NULL handle -> its INV_* code (before the fp check, and with
 *    or without init), a NULL FILE * -> ABT_ERR_INV_ARG, print_config and
 *    print_all_xstreams before init / after finalize ->
 *    ABT_ERR_UNINITIALIZED even with a NULL FILE *; a failing call prints
 *    nothing. */
#include "bb_test.h"
#include "capture_util.h"
#include <pthread.h>
#include <stdint.h>

/* ---- capturing and reading the output ------------------------------------------ */

/* The value of the only `label` line; "" (and a failure) if not exactly one. */
static const char *field_at(const char *text, const char *label, int line)
{
    static char vals[4][80];
    int n = fields(text, label, vals, 4);
    if (n != 1) {
        fprintf(stderr, "%s:%d: field \"%s\" appears %d times in:\n%s", __FILE__, line, label,
                n, text);
        bb_test_failures++;
        return "";
    }
    return vals[0];
}
#define FIELD(text, label) field_at(text, label, __LINE__)
#define CHECK_FIELD(text, label, want)                                                     \
    do {                                                                                   \
        const char *got_ = FIELD(text, label);                                             \
        if (strcmp(got_, want) != 0)                                                       \
            BB_FAIL_AT("field %s is \"%s\", expected \"%s\"", label, got_, want);          \
    } while (0)

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    size_t nl = strlen(needle);
    for (const char *p = strstr(text, needle); p; p = strstr(p + nl, needle))
        n++;
    return n;
}

static int count_lines(const char *text)
{
    return count_of(text, "\n");
}

static void ptr_str(char *out, size_t n, const void *p)
{
    snprintf(out, n, "%p", p);
}

/* Indentation of the line holding `needle` (-1 if absent). */
static int indent_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    if (!p)
        return -1;
    const char *start = p;
    while (start > text && start[-1] != '\n')
        start--;
    int n = 0;
    while (start[n] == ' ')
        n++;
    return n;
}

/* ---- errors that need no runtime ----------------------------------------------- */

static void check_null_handles(void)
{
    CHECK_FAILS_SILENTLY(ABT_info_print_xstream(fp, ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_FAILS_SILENTLY(ABT_info_print_sched(fp, ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_FAILS_SILENTLY(ABT_info_print_pool(fp, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_FAILS_SILENTLY(ABT_info_print_thread(fp, ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_FAILS_SILENTLY(ABT_info_print_thread(fp, ABT_TASK_NULL), ABT_ERR_INV_THREAD);
    CHECK_FAILS_SILENTLY(ABT_info_print_task(fp, ABT_TASK_NULL), ABT_ERR_INV_TASK);
    CHECK_FAILS_SILENTLY(ABT_info_print_task(fp, ABT_THREAD_NULL), ABT_ERR_INV_TASK);
    CHECK_FAILS_SILENTLY(ABT_info_print_thread_attr(fp, ABT_THREAD_ATTR_NULL),
                         ABT_ERR_INV_THREAD_ATTR);
    /* The handle is checked before the FILE *. */
    CHECK_ERR(ABT_info_print_xstream(NULL, ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_info_print_sched(NULL, ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_info_print_pool(NULL, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_info_print_thread(NULL, ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_info_print_task(NULL, ABT_TASK_NULL), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_info_print_thread_attr(NULL, ABT_THREAD_ATTR_NULL), ABT_ERR_INV_THREAD_ATTR);
}

static void check_uninit(void)
{
    CHECK_FAILS_SILENTLY(ABT_info_print_config(fp), ABT_ERR_UNINITIALIZED);
    CHECK_FAILS_SILENTLY(ABT_info_print_all_xstreams(fp), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_info_print_config(NULL), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(ABT_info_print_all_xstreams(NULL), ABT_ERR_UNINITIALIZED);
    check_null_handles();
}

/* ---- config ------------------------------------------------------------------------ */

static void check_config(void)
{
    char *text;
    CAPTURE(text, ABT_info_print_config(fp));
    CHECK(strstr(text, ABT_VERSION) != NULL);
    CHECK(strstr(text, "40960") != NULL); /* ABT_THREAD_STACKSIZE */
    free(text);

    /* A real file: the text is there when read back through another stream. */
    FILE *tf = tmpfile();
    CHECK(tf != NULL);
    if (tf) {
        CHECK_OK(ABT_info_print_config(tf));
        long size = ftell(tf);
        CHECK(size > 0);
        rewind(tf);
        char buf[8192];
        size_t n = fread(buf, 1, sizeof(buf) - 1, tf);
        buf[n] = '\0';
        CHECK_EQ(n, size);
        CHECK(strstr(buf, "40960") != NULL);
        fclose(tf);
    }
    CHECK_ERR(ABT_info_print_config(NULL), ABT_ERR_INV_ARG);
}

/* ---- xstreams ------------------------------------------------------------------------ */

static char *ext_text;
static int ext_ret = -1;

static void *external_print_all(void *arg)
{
    (void)arg;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (!fp)
        return NULL;
    ext_ret = ABT_info_print_all_xstreams(fp);
    fclose(fp);
    ext_text = buf;
    return NULL;
}

static void check_all_xstreams_text(const char *text, ABT_xstream es[3])
{
    char ranks[8][80], types[8][80];
    int n = fields(text, "rank", ranks, 8);
    CHECK_EQ(n, 3);
    if (n == 3) {
        CHECK(strcmp(ranks[0], "0") == 0);
        CHECK(strcmp(ranks[1], "1") == 0);
        CHECK(strcmp(ranks[2], "3") == 0);
    }
    CHECK_EQ(fields(text, "type", types, 8), 3);
    CHECK_EQ(count_of(text, "PRIMARY"), 1);
    CHECK_EQ(count_of(text, "SECONDARY"), 2);
    /* Each ES once, in rank order (es[] is in rank order). */
    const char *prev = text;
    for (int i = 0; i < 3; i++) {
        char addr[32];
        ptr_str(addr, sizeof(addr), (void *)es[i]);
        CHECK_EQ(count_of(text, addr), 1);
        const char *at = strstr(text, addr);
        CHECK(at != NULL && at >= prev);
        if (at)
            prev = at;
    }
    /* No scheduler or pool is printed inside. */
    char none[4][80];
    CHECK_EQ(fields(text, "access", none, 4), 0);
}

static void check_xstreams(void)
{
    ABT_xstream primary, es3, es1;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 3, &es3));
    CHECK_OK(ABT_xstream_create_with_rank(ABT_SCHED_NULL, 1, &es1));
    ABT_xstream in_rank_order[3] = {primary, es1, es3};

    char *text;
    CAPTURE(text, ABT_info_print_all_xstreams(fp));
    check_all_xstreams_text(text, in_rank_order);
    free(text);
    CHECK_ERR(ABT_info_print_all_xstreams(NULL), ABT_ERR_INV_ARG);

    /* From a thread that is not an ES. */
    pthread_t pt;
    CHECK_EQ(pthread_create(&pt, NULL, external_print_all, NULL), 0);
    pthread_join(pt, NULL);
    CHECK_EQ(ext_ret, ABT_SUCCESS);
    CHECK(ext_text != NULL);
    if (ext_text)
        check_all_xstreams_text(ext_text, in_rank_order);
    free(ext_text);

    /* One ES. */
    char addr[32];
    CAPTURE(text, ABT_info_print_xstream(fp, es1));
    ptr_str(addr, sizeof(addr), (void *)es1);
    CHECK(strstr(text, addr) != NULL);
    CHECK_FIELD(text, "rank", "1");
    CHECK_FIELD(text, "type", "SECONDARY");
    CHECK_FIELD(text, "state", "RUNNING");
    char none[4][80];
    CHECK_EQ(fields(text, "access", none, 4), 0); /* not its scheduler's pools */
    CHECK_EQ(fields(text, "pools", none, 4), 0);
    free(text);

    CAPTURE(text, ABT_info_print_xstream(fp, primary));
    CHECK_FIELD(text, "rank", "0");
    CHECK_FIELD(text, "type", "PRIMARY");
    CHECK_FIELD(text, "state", "RUNNING");
    free(text);
    CHECK_ERR(ABT_info_print_xstream(NULL, primary), ABT_ERR_INV_ARG);

    CHECK_OK(ABT_xstream_join(es3));
    CAPTURE(text, ABT_info_print_xstream(fp, es3));
    CHECK_FIELD(text, "rank", "3");
    CHECK_FIELD(text, "state", "TERMINATED");
    free(text);

    CHECK_OK(ABT_xstream_free(&es3));
    CHECK_OK(ABT_xstream_free(&es1));
}

/* ---- schedulers and pools ------------------------------------------------------------ */

static void check_sched(ABT_pool main_pool)
{
    ABT_pool pools[2];
    int ids[2];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pools[0]));
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_FALSE, &pools[1]));
    CHECK_OK(ABT_pool_get_id(pools[0], &ids[0]));
    CHECK_OK(ABT_pool_get_id(pools[1], &ids[1]));
    ABT_sched sched;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &sched));

    char *text;
    CAPTURE(text, ABT_info_print_sched(fp, sched));
    char vals[4][80];
    /* "kind": the scheduler's, then one per nested pool. */
    int n = fields(text, "kind", vals, 4);
    CHECK_EQ(n, 3);
    CHECK(strcmp(vals[0], "BASIC") == 0);
    CHECK_FIELD(text, "used", "NOT_USED");
    CHECK_FIELD(text, "pools", "2");
    n = fields(text, "id", vals, 4);
    CHECK_EQ(n, 2);
    if (n == 2) {
        CHECK_EQ(atoi(vals[0]), ids[0]);
        CHECK_EQ(atoi(vals[1]), ids[1]);
    }
    n = fields(text, "access", vals, 4);
    CHECK_EQ(n, 2);
    if (n == 2) {
        CHECK(strcmp(vals[0], "MPMC") == 0);
        CHECK(strcmp(vals[1], "PRIV") == 0);
    }
    /* The pools' blocks are nested: indented further than the sched's fields. */
    CHECK(indent_of(text, "access") > indent_of(text, "kind"));
    CHECK(indent_of(text, "kind") > indent_of(text, "sched"));
    free(text);
    CHECK_ERR(ABT_info_print_sched(NULL, sched), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_sched_free(&sched));
    CHECK_OK(ABT_pool_free(&pools[0]));
    CHECK_OK(ABT_pool_free(&pools[1]));

    /* The primary ES's main scheduler: MAIN, with its main pool inside. */
    ABT_xstream primary;
    ABT_sched main_sched;
    int main_id = -1;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_sched(primary, &main_sched));
    CHECK_OK(ABT_pool_get_id(main_pool, &main_id));
    CAPTURE(text, ABT_info_print_sched(fp, main_sched));
    CHECK_FIELD(text, "used", "MAIN");
    CHECK_FIELD(text, "pools", "1");
    CHECK_EQ(atoi(FIELD(text, "id")), main_id);
    free(text);
}

static void noop(void *arg)
{
    (void)arg;
}

static void check_pool(ABT_pool main_pool)
{
    ABT_pool pool;
    int id = -1;
    char want_id[32];
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    CHECK_OK(ABT_pool_get_id(pool, &id));
    snprintf(want_id, sizeof(want_id), "%d", id);

    char *text;
    CAPTURE(text, ABT_info_print_pool(fp, pool));
    CHECK_FIELD(text, "id", want_id);
    CHECK_FIELD(text, "access", "MPMC");
    CHECK_FIELD(text, "size", "0");
    CHECK_FIELD(text, "empty", "yes");
    CHECK_FIELD(text, "schedulers", "0");
    free(text);

    ABT_thread t[3];
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_create(pool, noop, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
    CAPTURE(text, ABT_info_print_pool(fp, pool));
    CHECK_FIELD(text, "id", want_id);
    CHECK_FIELD(text, "size", "3");
    CHECK_FIELD(text, "empty", "no");
    free(text);
    CHECK_ERR(ABT_info_print_pool(NULL, pool), ABT_ERR_INV_ARG);

    /* Printing changed nothing: the three are still there, in order. */
    size_t size = 0;
    CHECK_OK(ABT_pool_get_size(pool, &size));
    CHECK_EQ(size, 3);
    for (int i = 0; i < 3; i++) {
        ABT_unit u = ABT_UNIT_NULL, want = ABT_UNIT_NULL;
        CHECK_OK(ABT_thread_get_unit(t[i], &want));
        CHECK_OK(ABT_pool_pop(pool, &u));
        CHECK(u == want);
        CHECK_OK(ABT_pool_push(main_pool, u));
    }
    for (int i = 0; i < 3; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_pool_free(&pool));

    /* The primary's main pool: used by one scheduler. */
    CAPTURE(text, ABT_info_print_pool(fp, main_pool));
    CHECK_FIELD(text, "schedulers", "1");
    free(text);
}

/* ---- work units ------------------------------------------------------------------------ */

static ABT_mutex mtx;
static char *self_text;

static void lock_once(void *arg)
{
    (void)arg;
    ABT_mutex_lock(mtx);
    ABT_mutex_unlock(mtx);
}

static void print_self(void *arg)
{
    (void)arg;
    ABT_thread self;
    ABT_self_get_thread(&self);
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    if (!fp)
        return;
    ABT_info_print_thread(fp, self);
    fclose(fp);
    self_text = buf;
}

/* The header names the unit's kind and the id ABT_thread_get_id reports. */
static void check_header(const char *text, ABT_thread t, const char *what)
{
    CHECK(strncmp(text, what, strlen(what)) == 0);
    ABT_unit_id id = 0;
    CHECK_OK(ABT_thread_get_id(t, &id));
    char want[64];
    snprintf(want, sizeof(want), "(id %llu)", (unsigned long long)id);
    const char *nl = strchr(text, '\n');
    const char *at = strstr(text, want);
    if (!at || (nl && at > nl))
        BB_FAIL_AT("header of %s lacks \"%s\": %.80s", what, want, text);
}

static void check_units(ABT_pool main_pool)
{
    char *text;

    /* READY: created, not run yet. Printed before any id query. */
    ABT_thread t;
    CHECK_OK(ABT_thread_create(main_pool, noop, NULL, ABT_THREAD_ATTR_NULL, &t));
    CAPTURE(text, ABT_info_print_thread(fp, t));
    check_header(text, t, "ULT");
    CHECK_FIELD(text, "type", "USER");
    CHECK_FIELD(text, "yieldable", "yes");
    CHECK_FIELD(text, "state", "READY");
    CHECK_FIELD(text, "named", "yes");
    CHECK_FIELD(text, "migratable", "yes");
    CHECK(strstr(FIELD(text, "stack"), "40960") != NULL);
    free(text);
    CHECK_ERR(ABT_info_print_thread(NULL, t), ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_info_print_task(NULL, t), ABT_ERR_INV_ARG);
    /* print_task takes a ULT too. */
    CAPTURE(text, ABT_info_print_task(fp, t));
    check_header(text, t, "ULT");
    CHECK_FIELD(text, "state", "READY");
    free(text);

    /* TERMINATED: joined, not freed. */
    CHECK_OK(ABT_thread_join(t));
    CAPTURE(text, ABT_info_print_thread(fp, t));
    CHECK_FIELD(text, "state", "TERMINATED");
    free(text);
    CHECK_OK(ABT_thread_free(&t));

    /* RUNNING: the primary ULT, and a ULT printing itself. */
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    CAPTURE(text, ABT_info_print_thread(fp, self));
    check_header(text, self, "ULT");
    CHECK_FIELD(text, "type", "PRIMARY");
    CHECK_FIELD(text, "state", "RUNNING");
    free(text);
    CHECK_OK(ABT_thread_create(main_pool, print_self, NULL, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_join(t));
    CHECK(self_text != NULL);
    if (self_text) {
        CHECK_FIELD(self_text, "state", "RUNNING");
        CHECK_FIELD(self_text, "type", "USER");
        check_header(self_text, t, "ULT");
    }
    free(self_text);
    CHECK_OK(ABT_thread_free(&t));

    /* BLOCKED: waiting for a mutex the primary holds. */
    CHECK_OK(ABT_mutex_create(&mtx));
    CHECK_OK(ABT_mutex_lock(mtx));
    CHECK_OK(ABT_thread_create(main_pool, lock_once, NULL, ABT_THREAD_ATTR_NULL, &t));
    ABT_thread_state st = ABT_THREAD_STATE_READY;
    for (int i = 0; i < 1000 && st != ABT_THREAD_STATE_BLOCKED; i++) {
        CHECK_OK(ABT_thread_yield());
        CHECK_OK(ABT_thread_get_state(t, &st));
    }
    CHECK_EQ(st, ABT_THREAD_STATE_BLOCKED);
    CAPTURE(text, ABT_info_print_thread(fp, t));
    CHECK_FIELD(text, "state", "BLOCKED");
    free(text);
    CHECK_OK(ABT_mutex_unlock(mtx));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_OK(ABT_mutex_free(&mtx));

    /* A tasklet, through both printers. */
    ABT_task k;
    CHECK_OK(ABT_task_create(main_pool, noop, NULL, &k));
    CAPTURE(text, ABT_info_print_task(fp, k));
    check_header(text, k, "tasklet");
    CHECK_FIELD(text, "yieldable", "no");
    CHECK_FIELD(text, "state", "READY");
    char none[4][80];
    CHECK_EQ(fields(text, "stack", none, 4), 0);
    free(text);
    CAPTURE(text, ABT_info_print_thread(fp, k));
    check_header(text, k, "tasklet");
    free(text);
    CHECK_OK(ABT_task_join(k));
    CAPTURE(text, ABT_info_print_task(fp, k));
    CHECK_FIELD(text, "state", "TERMINATED");
    free(text);
    CHECK_OK(ABT_task_free(&k));
}

/* ---- attributes ------------------------------------------------------------------------ */

static char user_stack[65536] __attribute__((aligned(64)));
static int cb_arg_target;

static void migrate_cb(ABT_thread t, void *arg)
{
    (void)t;
    (void)arg;
}

static void check_attr_text(const char *text)
{
    char want[64];
    CHECK_EQ(count_lines(text), 1);
    snprintf(want, sizeof(want), "%zu", sizeof(user_stack));
    CHECK(strstr(text, want) != NULL);
    ptr_str(want, sizeof(want), user_stack);
    CHECK(strstr(text, want) != NULL);
    ptr_str(want, sizeof(want), &cb_arg_target);
    CHECK(strstr(text, want) != NULL);
    CHECK(strstr(text, "migratable no") != NULL);
}

static ABT_thread_attr make_attr(void)
{
    ABT_thread_attr attr;
    CHECK_OK(ABT_thread_attr_create(&attr));
    char *text;
    CAPTURE(text, ABT_info_print_thread_attr(fp, attr));
    CHECK_EQ(count_lines(text), 1);
    CHECK(strstr(text, "40960") != NULL); /* the default stack size */
    CHECK(strstr(text, "migratable yes") != NULL);
    free(text);
    CHECK_OK(ABT_thread_attr_set_stack(attr, user_stack, sizeof(user_stack)));
    CHECK_OK(ABT_thread_attr_set_migratable(attr, ABT_FALSE));
    CHECK_OK(ABT_thread_attr_set_callback(attr, migrate_cb, &cb_arg_target));
    CAPTURE(text, ABT_info_print_thread_attr(fp, attr));
    check_attr_text(text);
    free(text);
    CHECK_ERR(ABT_info_print_thread_attr(NULL, attr), ABT_ERR_INV_ARG);
    return attr;
}

int main(void)
{
    BB_TEST_BEGIN(30);
    check_uninit();

    setenv("ABT_THREAD_STACKSIZE", "40960", 1);
    CHECK_OK(ABT_init(0, NULL));
    check_null_handles();
    ABT_xstream primary;
    ABT_pool main_pool;
    CHECK_OK(ABT_xstream_self(&primary));
    CHECK_OK(ABT_xstream_get_main_pools(primary, 1, &main_pool));

    check_config();
    check_xstreams();
    check_sched(main_pool);
    check_pool(main_pool);
    check_units(main_pool);
    ABT_thread_attr attr = make_attr();
    CHECK_OK(ABT_finalize());

    /* The attribute outlives the runtime, and prints without it. */
    char *text;
    CAPTURE(text, ABT_info_print_thread_attr(fp, attr));
    check_attr_text(text);
    free(text);
    check_uninit();

    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_finalize());
    unsetenv("ABT_THREAD_STACKSIZE");
    BB_TEST_END();
}
