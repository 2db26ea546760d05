/* Direct yield (src/unit/hotpath.c, ABT_OPT_DIRECT_YIELD) keeps the
 * scheduler's order: N ULTs in a private FIFO pool, each yielding K times,
 * with a tasklet queued among them and a ULT created midway by one of them,
 * run in exactly the FIFO round-robin order (computed by a model of the
 * queue), whatever the predefined in-order scheduler (BASIC, BASIC_WAIT,
 * PRIO; default and small event frequencies, so that some yields go through
 * the scheduler and others switch directly). The whole test runs twice:
 * with the default settings and with ABT_OPT_DIRECT_YIELD=0. */
#include "bb_test.h"

#define N 6
#define K 40
#define SPAWN_AT 10 /* ULT 0 creates ULT N at this iteration */
#define SPAWN_K 15  /* iterations of ULT N */
#define TASK_ID (N + 1)
#define MAX_REC ((N * K) + SPAWN_K + 8)

static int rec[MAX_REC];
static int nrec;
static ABT_pool priv;

static void record(int v)
{
    if (nrec < MAX_REC)
        rec[nrec] = v;
    nrec++;
}

static void ult(void *arg);

static void spawned(void *arg)
{
    (void)arg;
    for (int k = 0; k < SPAWN_K; k++) {
        record(N * 1000 + k);
        ABT_thread_yield();
    }
}

static void ult(void *arg)
{
    int id = (int)(intptr_t)arg;
    for (int k = 0; k < K; k++) {
        record(id * 1000 + k);
        if (id == 0 && k == SPAWN_AT)
            ABT_thread_create(priv, spawned, NULL, ABT_THREAD_ATTR_NULL, NULL);
        ABT_thread_yield();
    }
}

static void task(void *arg)
{
    (void)arg;
    record(TASK_ID * 1000);
}

/* The FIFO model: a queue of ids; each turn of a ULT records one iteration
 * (maybe spawning), then goes back to the tail; its last turn ends it. */
static int expect[MAX_REC];
static int nexpect;

static void model(void)
{
    int queue[4 * MAX_REC], head = 0, tail = 0, done[N + 2] = {0};
    nexpect = 0;
    for (int i = 0; i < N; i++) {
        queue[tail++] = i;
        if (i == N / 2)
            queue[tail++] = TASK_ID;
    }
    while (head < tail) {
        int id = queue[head++];
        if (id == TASK_ID) {
            expect[nexpect++] = TASK_ID * 1000;
            continue;
        }
        int limit = id == N ? SPAWN_K : K;
        if (done[id] == limit)
            continue; /* returns from its last yield */
        expect[nexpect++] = id * 1000 + done[id];
        if (id == 0 && done[id] == SPAWN_AT)
            queue[tail++] = N;
        done[id]++;
        queue[tail++] = id;
    }
}

static void run_with(ABT_sched_predef kind, int freq, const char *label)
{
    ABT_thread t[N];
    ABT_task k;
    ABT_xstream es;
    ABT_sched_config cfg = ABT_SCHED_CONFIG_NULL;
    nrec = 0;
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &priv));
    /* Queued before the ES starts, so that only that ES touches the pool. */
    for (int i = 0; i < N; i++) {
        CHECK_OK(ABT_thread_create(priv, ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL, &t[i]));
        if (i == N / 2)
            CHECK_OK(ABT_task_create(priv, task, NULL, &k));
    }
    if (freq > 0)
        CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, freq,
                                         ABT_sched_config_var_end));
    CHECK_OK(ABT_xstream_create_basic(kind, 1, &priv, cfg, &es));
    for (int i = 0; i < N; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_task_free(&k));
    CHECK_OK(ABT_xstream_free(&es));
    if (cfg != ABT_SCHED_CONFIG_NULL)
        CHECK_OK(ABT_sched_config_free(&cfg));

    CHECK_EQ(nrec, nexpect);
    for (int i = 0; i < nexpect && i < nrec; i++) {
        if (rec[i] != expect[i]) {
            BB_FAIL_AT("%s: step %d ran %d.%d, expected %d.%d", label, i, rec[i] / 1000,
                       rec[i] % 1000, expect[i] / 1000, expect[i] % 1000);
            break;
        }
    }
}

static void run_all(void)
{
    CHECK_OK(ABT_init(0, NULL));
    run_with(ABT_SCHED_BASIC, 0, "BASIC");
    run_with(ABT_SCHED_BASIC, 3, "BASIC freq 3");
    run_with(ABT_SCHED_BASIC, 1, "BASIC freq 1");
    run_with(ABT_SCHED_BASIC_WAIT, 2, "BASIC_WAIT freq 2");
    run_with(ABT_SCHED_PRIO, 0, "PRIO");
    run_with(ABT_SCHED_DEFAULT, 5, "DEFAULT freq 5");
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(20);
    model();
    CHECK_EQ(nexpect, N * K + SPAWN_K + 1);
    unsetenv("ABT_OPT_DIRECT_YIELD");
    run_all();
    setenv("ABT_OPT_DIRECT_YIELD", "0", 1);
    run_all();
    BB_TEST_END();
}
