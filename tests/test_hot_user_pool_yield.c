/* Direct yield through a user pool (src/unit/hotpath.c): a ULT whose pool is
 * the first pool of a predefined in-order scheduler pushes itself into the
 * pool on ABT_thread_yield, and the pool's pop decides what runs next, as
 * the scheduler's loop would. Each case runs a user pool of one kind (FIFO,
 * LIFO, or a FIFO whose pop declines on demand), in both interfaces
 * (ABT_pool_user_def_create; legacy struct ABT_pool_def, with and without
 * u_get_thread), served by a secondary ES (BASIC unless said otherwise),
 * with the units queued before the ES starts, and checks the exact order in
 * which the units ran (bb_seq log):
 *  1. FIFO: two ULTs that yield alternate strictly (ABAB...), three go
 *     round-robin, under BASIC, PRIO, BASIC_WAIT and the default scheduler,
 *     with the default event frequency and with frequency 1 and 3 (some
 *     yields then go through the scheduler);
 *  2. LIFO: a ULT that yields while it is the newest unit keeps running (it
 *     is not lost, nor run twice); the older unit runs after it ends;
 *  3. a tasklet popped by a yield runs once, on the scheduler, and the ULTs
 *     behind it then run in FIFO order;
 *  4. a ULT popped by a yield with a pending cancel (started and yielded, or
 *     never started) ends without running any more of its code, is
 *     terminated, and can be joined and freed;
 *  5. a ULT popped by a yield with a pending migration to the scheduler's
 *     second pool (a built-in FIFO) goes there and runs from there after the
 *     first pool is drained;
 *  6. a pop that declines (returns NULL) once: the scheduler pops again, and
 *     the order is the FIFO one; also when the yielder is the only unit;
 *  7. on the primary ES (ABT_xstream_set_main_sched_basic over the user
 *     pool), the primary ULT and two others alternate strictly;
 * and in every case every unit the pool made was given back exactly once,
 * with nothing pushed twice or freed while in the pool. The whole test runs
 * with the default settings and with ABT_OPT_DIRECT_YIELD=0 (every yield
 * through the scheduler: the same orders). */
#include "pool_user_util.h"

#define K 20 /* iterations of the alternating ULTs */

enum { POP_FIFO, POP_LIFO };
static int pop_kind;           /* of the pool made next (one user pool at a time) */
static atomic_int decline;     /* the pop declines this many of its next calls */
static atomic_int n_declined;
static int iface;              /* 0: new-style, 1: legacy, 2: legacy with u_get_thread */
static const char *round_name; /* for the messages */
static const char *case_name;
static const char *const iface_names[3] = {"new-style", "legacy", "legacy+u_get_thread"};

#define CHECK_SEQ(expected)                                                                \
    do {                                                                                   \
        if (strcmp(bb_seq, (expected)) != 0)                                               \
            BB_FAIL_AT("%s, %s, %s: sequence \"%s\", expected \"%s\"", case_name,          \
                       iface_names[iface], round_name, bb_seq, (expected));               \
    } while (0)

/* ---- the pools: up_state's list, popped from its head or its tail ---- */

static int take_decline(void)
{
    int n = atomic_load(&decline);
    while (n > 0)
        if (atomic_compare_exchange_weak(&decline, &n, n - 1)) {
            atomic_fetch_add(&n_declined, 1);
            return 1;
        }
    return 0;
}

static up_unit *y_pop_unit(ABT_pool pool)
{
    if (take_decline())
        return NULL;
    up_state *s = up_state_of(pool);
    pthread_mutex_lock(&s->lock);
    up_unit *u = pop_kind == POP_LIFO ? up_list_pop_tail(s) : up_list_pop(s);
    pthread_mutex_unlock(&s->lock);
    atomic_fetch_add(&s->n_pop, 1);
    return u;
}

static ABT_thread y_pop(ABT_pool pool, ABT_pool_context ctx)
{
    (void)ctx;
    up_unit *u = y_pop_unit(pool);
    return u ? u->thread : ABT_THREAD_NULL;
}

static ABT_unit y_l_pop(ABT_pool pool)
{
    up_unit *u = y_pop_unit(pool);
    return u ? (ABT_unit)u : ABT_UNIT_NULL;
}

static up_state st;

/* A user pool of kind `kind` in the current interface; no pop_wait nor
 * pop_many, so that every pop, the scheduler's too, goes through y_pop. */
static ABT_pool make_pool(int kind, ABT_pool_access legacy_access)
{
    ABT_pool pool = ABT_POOL_NULL;
    pop_kind = kind;
    atomic_store(&decline, 0);
    up_state_init(&st);
    ABT_pool_config cfg = up_config(&st, -1);
    if (iface == 0) {
        pool = up_new_pool_with(NULL, y_pop, cfg);
    } else {
        ABT_pool_def d = up_legacy_def(legacy_access, iface == 2);
        d.p_pop = y_l_pop;
        d.p_pop_timedwait = NULL;
        CHECK_OK(ABT_pool_create(&d, cfg, &pool));
    }
    CHECK_OK(ABT_pool_config_free(&cfg));
    return pool;
}

/* Every unit made was given back once; nothing misused. Call once the
 * pool is freed. */
static void check_units_balanced(void)
{
    if (atomic_load(&up_g.n_create) != atomic_load(&up_g.n_free_unit) ||
        atomic_load(&up_g.n_misuse) != 0)
        BB_FAIL_AT("%s, %s, %s: %d unit(s) made, %d given back, %d misuse(s)", case_name,
                   iface_names[iface], round_name, atomic_load(&up_g.n_create),
                   atomic_load(&up_g.n_free_unit), atomic_load(&up_g.n_misuse));
    CHECK_EQ(atomic_load(&st.n_free), 1);
    memset(&up_g, 0, sizeof(up_g));
}

/* ---- a run: units queued in a fresh pool, then an ES over it ---- */

#define MAXU 8
static ABT_pool P, F;
static ABT_thread units[MAXU];
static int nunits;

static void begin(const char *name, int kind)
{
    case_name = name;
    bb_seq_reset();
    atomic_store(&n_declined, 0);
    nunits = 0;
    P = make_pool(kind, ABT_POOL_ACCESS_MPSC);
}

static ABT_thread add_ult(void (*fn)(void *), void *arg)
{
    CHECK_OK(ABT_thread_create(P, fn, arg, ABT_THREAD_ATTR_NULL, &units[nunits]));
    return units[nunits++];
}

static ABT_thread add_task(void (*fn)(void *), void *arg)
{
    CHECK_OK(ABT_task_create(P, fn, arg, &units[nunits]));
    return units[nunits++];
}

/* Start an ES of kind `sched` over P (and F, if set; freq > 0: its event
 * frequency), free every unit, join and free the ES, free the pools. */
static void finish(ABT_sched_predef sched, int freq)
{
    ABT_xstream es;
    ABT_sched_config cfg = ABT_SCHED_CONFIG_NULL;
    ABT_pool pools[2] = {P, F};
    if (freq > 0)
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, freq,
                                         ABT_sched_config_var_end));
    CHECK_OK(ABT_xstream_create_basic(sched, F != ABT_POOL_NULL ? 2 : 1, pools, cfg, &es));
    for (int i = 0; i < nunits; i++)
        CHECK_OK(ABT_thread_free(&units[i]));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    if (cfg != ABT_SCHED_CONFIG_NULL)
        CHECK_OK(ABT_sched_config_free(&cfg));
    CHECK_OK(ABT_pool_free(&P));
    if (F != ABT_POOL_NULL)
        CHECK_OK(ABT_pool_free(&F));
    check_units_balanced();
}

/* ---- 1: FIFO alternation ---- */

static void alternate(void *arg)
{
    for (int k = 0; k < K; k++) {
        bb_seq_note((char)(intptr_t)arg);
        ABT_thread_yield();
    }
}

static void expect_round_robin(const char *letters)
{
    char exp[K * MAXU + 1];
    int n = 0, m = (int)strlen(letters);
    for (int k = 0; k < K; k++)
        for (int i = 0; i < m; i++)
            exp[n++] = letters[i];
    exp[n] = '\0';
    CHECK_SEQ(exp);
}

static void case_fifo(void)
{
    static const struct {
        ABT_sched_predef kind;
        int freq;
        const char *name;
    } scheds[] = {{ABT_SCHED_BASIC, 0, "FIFO alternation, BASIC"},
                  {ABT_SCHED_BASIC, 1, "FIFO alternation, BASIC freq 1"},
                  {ABT_SCHED_BASIC, 3, "FIFO alternation, BASIC freq 3"},
                  {ABT_SCHED_PRIO, 0, "FIFO alternation, PRIO"},
                  {ABT_SCHED_BASIC_WAIT, 0, "FIFO alternation, BASIC_WAIT"},
                  {ABT_SCHED_DEFAULT, 0, "FIFO alternation, DEFAULT"}};
    for (size_t i = 0; i < sizeof(scheds) / sizeof(scheds[0]); i++) {
        begin(scheds[i].name, POP_FIFO);
        add_ult(alternate, (void *)'A');
        add_ult(alternate, (void *)'B');
        finish(scheds[i].kind, scheds[i].freq);
        expect_round_robin("AB");
    }
    begin("FIFO round-robin of three", POP_FIFO);
    add_ult(alternate, (void *)'A');
    add_ult(alternate, (void *)'B');
    add_ult(alternate, (void *)'C');
    finish(ABT_SCHED_BASIC, 0);
    expect_round_robin("ABC");
}

/* ---- 2: LIFO ---- */

static ABT_thread lifo_child;

static void lifo_parent(void *arg)
{
    (void)arg;
    bb_seq_note('1');
    CHECK_OK(ABT_thread_create(P, bb_seq_log_char, (void *)'B', ABT_THREAD_ATTR_NULL,
                               &lifo_child));
    bb_seq_note('2');
    ABT_thread_yield(); /* newest: keeps running */
    bb_seq_note('3');
    ABT_thread_yield();
    bb_seq_note('4');
}

static void case_lifo(void)
{
    begin("LIFO keeps the yielder running", POP_LIFO);
    add_ult(lifo_parent, NULL);
    /* The child, made by the parent, is freed once the ES is joined. */
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_free(&units[0]));
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK(lifo_child != ABT_THREAD_NULL);
    CHECK_OK(ABT_thread_free(&lifo_child));
    CHECK_OK(ABT_pool_free(&P));
    check_units_balanced();
    CHECK_SEQ("1234B");
    CHECK(atomic_load(&st.n_pop) >= 4); /* the pool did decide */
}

/* ---- 3: a tasklet popped by a yield ---- */

static void yield_once(void *arg)
{
    char c = (char)(intptr_t)arg;
    bb_seq_note(c);
    ABT_thread_yield();
    bb_seq_note((char)(c + 2)); /* 'a' -> 'c', 'b' -> 'd' */
}

static void case_tasklet(void)
{
    begin("tasklet popped by a yield", POP_FIFO);
    add_ult(yield_once, (void *)'a');
    add_task(bb_seq_log_char, (void *)'t');
    finish(ABT_SCHED_BASIC, 0);
    CHECK_SEQ("atc");

    begin("tasklet between two ULTs", POP_FIFO);
    add_ult(yield_once, (void *)'a');
    add_task(bb_seq_log_char, (void *)'t');
    add_ult(yield_once, (void *)'b');
    finish(ABT_SCHED_BASIC, 0);
    CHECK_SEQ("atbcd");
}

/* ---- 4: a pending cancel ---- */

static ABT_thread victim;

static void cancelled(void *arg)
{
    (void)arg;
    bb_seq_note('b');
    ABT_thread_yield();
    bb_seq_note('X'); /* never: cancelled while it waits */
    ABT_thread_yield();
    bb_seq_note('Y');
}

static void canceller(void *arg)
{
    (void)arg;
    bb_seq_note('a');
    ABT_thread_yield();
    CHECK_OK(ABT_thread_cancel(victim));
    bb_seq_note('c');
    ABT_thread_yield(); /* pops the victim with its cancel */
    bb_seq_note('d');
    ABT_thread_yield();
    bb_seq_note('e');
}

static void cancel_before_start(void *arg)
{
    (void)arg;
    CHECK_OK(ABT_thread_cancel(victim));
    bb_seq_note('a');
    ABT_thread_yield();
    bb_seq_note('c');
}

static void check_victim_ended(void)
{
    ABT_thread_state state = (ABT_thread_state)-1;
    CHECK_OK(ABT_thread_get_state(victim, &state));
    CHECK_EQ(state, ABT_THREAD_STATE_TERMINATED);
    CHECK_OK(ABT_thread_join(victim));
}

static void case_cancel(void)
{
    begin("cancel of a started ULT", POP_FIFO);
    add_ult(canceller, NULL);
    victim = add_ult(cancelled, NULL);
    F = ABT_POOL_NULL;
    ABT_xstream es;
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_join(units[0]));
    check_victim_ended();
    nunits = 0;
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_thread_free(&units[0]));
    CHECK_OK(ABT_thread_free(&units[1]));
    CHECK_OK(ABT_pool_free(&P));
    check_units_balanced();
    CHECK_SEQ("abcde");

    begin("cancel of a ULT not started", POP_FIFO);
    add_ult(cancel_before_start, NULL);
    victim = add_ult(cancelled, NULL);
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &P, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_join(units[0]));
    check_victim_ended();
    nunits = 0;
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    CHECK_OK(ABT_thread_free(&units[0]));
    CHECK_OK(ABT_thread_free(&units[1]));
    CHECK_OK(ABT_pool_free(&P));
    check_units_balanced();
    CHECK_SEQ("ac");
}

/* ---- 5: a pending migration ---- */

static ABT_thread migrant;

static void migrated(void *arg)
{
    (void)arg;
    bb_seq_note('b');
    ABT_thread_yield();
    bb_seq_note('e'); /* from F */
}

static void migrator(void *arg)
{
    (void)arg;
    bb_seq_note('a');
    ABT_thread_yield();
    CHECK_OK(ABT_thread_migrate_to_pool(migrant, F));
    bb_seq_note('c');
    ABT_thread_yield(); /* pops the migrant with its request */
    bb_seq_note('d');
}

static void case_migrate(void)
{
    begin("migration request", POP_FIFO);
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &F));
    add_ult(migrator, NULL);
    migrant = add_ult(migrated, NULL);
    ABT_xstream es;
    ABT_pool pools[2] = {P, F};
    CHECK_OK(ABT_xstream_create_basic(ABT_SCHED_BASIC, 2, pools, ABT_SCHED_CONFIG_NULL, &es));
    CHECK_OK(ABT_thread_join(migrant));
    ABT_pool last = ABT_POOL_NULL;
    CHECK_OK(ABT_thread_get_last_pool(migrant, &last));
    CHECK(last == F);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
    for (int i = 0; i < nunits; i++)
        CHECK_OK(ABT_thread_free(&units[i]));
    CHECK_OK(ABT_pool_free(&P));
    CHECK_OK(ABT_pool_free(&F));
    check_units_balanced();
    CHECK_SEQ("abcde");
}

/* ---- 6: a pop that declines ---- */

static void declining_yield(void *arg)
{
    char c = (char)(intptr_t)arg;
    bb_seq_note(c);
    atomic_store(&decline, 1);
    ABT_thread_yield();
    bb_seq_note((char)(c + 2));
}

static void case_decline(void)
{
    begin("declining pop, two ULTs", POP_FIFO);
    add_ult(declining_yield, (void *)'a');
    add_ult(declining_yield, (void *)'b');
    F = ABT_POOL_NULL;
    finish(ABT_SCHED_BASIC, 0);
    CHECK_SEQ("abcd");
    CHECK_EQ(atomic_load(&n_declined), 2);

    begin("declining pop, the yielder alone", POP_FIFO);
    add_ult(declining_yield, (void *)'a');
    finish(ABT_SCHED_BASIC, 0);
    CHECK_SEQ("ac");
    CHECK_EQ(atomic_load(&n_declined), 1);
}

/* ---- 7: on the primary ES ---- */

static void case_primary(void)
{
    /* Last of a round: ABT_finalize frees the pool. Shared with the
     * primary ES's other users: MPMC. */
    case_name = "primary ES over the user pool";
    bb_seq_reset();
    P = make_pool(POP_FIFO, ABT_POOL_ACCESS_MPMC);
    ABT_xstream self;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_set_main_sched_basic(self, ABT_SCHED_BASIC, 1, &P));
    ABT_thread a, b;
    CHECK_OK(ABT_thread_create(P, alternate, (void *)'A', ABT_THREAD_ATTR_NULL, &a));
    CHECK_OK(ABT_thread_create(P, alternate, (void *)'B', ABT_THREAD_ATTR_NULL, &b));
    for (int k = 0; k < K; k++) {
        bb_seq_note('M');
        ABT_thread_yield();
    }
    CHECK_OK(ABT_thread_free(&a));
    CHECK_OK(ABT_thread_free(&b));
    expect_round_robin("MAB");
}

static void run_round(const char *name)
{
    round_name = name;
    for (iface = 0; iface < 3; iface++) {
        memset(&up_g, 0, sizeof(up_g));
        CHECK_OK(ABT_init(0, NULL));
        F = ABT_POOL_NULL;
        case_fifo();
        case_lifo();
        case_tasklet();
        case_cancel();
        case_migrate();
        F = ABT_POOL_NULL;
        case_decline();
        case_primary();
        CHECK_OK(ABT_finalize());
        check_units_balanced();
    }
}

int main(void)
{
    BB_TEST_BEGIN(30);
    unsetenv("ABT_OPT_DIRECT_YIELD");
    run_round("default");
    setenv("ABT_OPT_DIRECT_YIELD", "0", 1);
    run_round("ABT_OPT_DIRECT_YIELD=0");
    BB_TEST_END();
}
