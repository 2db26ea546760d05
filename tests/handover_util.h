/*
 * Shared scaffolding for the tests of the ABT_self_* routines that hand the
 * ES over to another unit (yield_to, suspend_to, exit_to, their resume_*
 * forms, schedule), and for the tests that every ABT_self_* routine fails.
 *
 *   start_es(argc, argv);        ABT_init + a secondary ES `es`, pool `pool1`
 *   make_side_pool();            optional: `side_pool`, see create_popped_ult
 *   make_done_task();            optional: `done_task`, a finished tasklet
 *   ... the test: note() in the ULTs, CHECK_ORDER("...") in main ...
 *   stop_es();                   frees all of the above, ABT_finalize
 *
 * Every helper checks the calls it makes itself (CHECK_OK / CHECK_EQ).
 */
#ifndef HANDOVER_UTIL_H
#define HANDOVER_UTIL_H

#include <pthread.h>
#include "bb_test.h"

static ABT_xstream es;     /* a secondary ES: the test's ULTs run on it */
static ABT_pool pool1;     /* es's main pool */
static ABT_pool side_pool; /* a pool no scheduler serves */
static ABT_task done_task; /* a tasklet that has finished: a "tasklet target" */

static inline void noop(void *arg)
{
    (void)arg;
}

static inline void start_es(int argc, char **argv)
{
    CHECK_OK(ABT_init(argc, argv));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pool1));
}

static inline void make_side_pool(void)
{
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &side_pool));
}

static inline void make_done_task(void)
{
    CHECK_OK(ABT_task_create(pool1, noop, NULL, &done_task));
    CHECK_OK(ABT_task_join(done_task));
}

/* Frees done_task and side_pool (if made) and es, then ABT_finalize. */
static inline void stop_es(void)
{
    if (done_task != ABT_TASK_NULL)
        CHECK_OK(ABT_task_free(&done_task));
    CHECK_OK(ABT_xstream_free(&es));
    if (side_pool != ABT_POOL_NULL)
        CHECK_OK(ABT_pool_free(&side_pool));
    CHECK_OK(ABT_finalize());
}

/* ---- Recording the order in which the ULTs run (all on es, one at a time) */

static char order[32];
static int pos;

static inline void note(char c)
{
    if (pos < (int)sizeof(order) - 1)
        order[pos++] = c;
}

/* A macro, so that a failure names the line in the test. */
#define CHECK_ORDER(expected)                                                              \
    do {                                                                                   \
        if (strcmp(order, (expected)) != 0)                                                \
            BB_FAIL_AT("CHECK_ORDER: order was \"%s\", expected \"%s\"", order, (expected)); \
    } while (0)

/* ---- Making ULTs */

/* Runs fn(arg) in a ULT on pool1 and frees that ULT (which joins it). */
static inline void run_ult(void (*fn)(void *), void *arg)
{
    ABT_thread t;
    CHECK_OK(ABT_thread_create(pool1, fn, arg, ABT_THREAD_ATTR_NULL, &t));
    CHECK_OK(ABT_thread_free(&t));
}

struct queue_job {
    void (*fn[3])(void *);
    ABT_thread *out[3];
};

static inline void queue_job_run(void *arg)
{
    struct queue_job *job = arg;
    for (int i = 0; i < 3; i++)
        if (job->fn[i])
            CHECK_OK(ABT_thread_create(pool1, job->fn[i], NULL, ABT_THREAD_ATTR_NULL,
                                       job->out[i]));
}

/* Creates ULTs *t1 = f1, *t2 = f2, *t3 = f3 (f3 may be NULL) in pool1, in that
 * order, from a ULT on pool1 itself: all are queued before the first runs. */
static inline void queue_ults(void (*f1)(void *), ABT_thread *t1, void (*f2)(void *),
                              ABT_thread *t2, void (*f3)(void *), ABT_thread *t3)
{
    struct queue_job job = {{f1, f2, f3}, {t1, t2, t3}};
    run_ult(queue_job_run, &job);
}

/* Creates a ULT *out running fn(arg) in side_pool and pops it straight back:
 * *out is READY but in no pool, as the *_to routines want their target.
 * Returns the popped unit. */
static inline ABT_unit create_popped_ult(void (*fn)(void *), void *arg, ABT_thread *out)
{
    ABT_unit unit = ABT_UNIT_NULL;
    CHECK_OK(ABT_thread_create(side_pool, fn, arg, ABT_THREAD_ATTR_NULL, out));
    CHECK_OK(ABT_pool_pop(side_pool, &unit));
    return unit;
}

/* ---- Calling from a caller that is not a ULT */

struct call_job {
    int (*call)(void);
    int ret;
};

static inline void call_job_run(void *arg)
{
    struct call_job *job = arg;
    job->ret = job->call();
}

static inline void *call_job_run_ext(void *arg)
{
    call_job_run(arg);
    return NULL;
}

/* Runs call() in a tasklet on pool1; returns what call() returned. */
static inline int call_from_tasklet(int (*call)(void))
{
    struct call_job job = {call, -1};
    ABT_task t;
    CHECK_OK(ABT_task_create(pool1, call_job_run, &job, &t));
    CHECK_OK(ABT_task_free(&t));
    return job.ret;
}

/* Runs call() on a new pthread that is no ES; returns what call() returned. */
static inline int call_from_external(int (*call)(void))
{
    struct call_job job = {call, -1};
    pthread_t th;
    CHECK_EQ(pthread_create(&th, NULL, call_job_run_ext, &job), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    return job.ret;
}

/* ---- Every ABT_self_* routine at once */

/* Checks that each ABT_self_* routine returns err, and that the 1.x routines
 * that pre-set their output leave the "none" value (EXT type, FALSE, -1,
 * NULL). `ult` is the target of the *_to routines and schedule, `pool` the
 * argument of set_associated_pool. */
static inline void check_all_self_routines_fail(int err, ABT_thread ult, ABT_pool pool)
{
    ABT_xstream xstream;
    int rank;
    ABT_thread thread;
    ABT_unit_id id;
    CHECK_ERR(ABT_self_get_xstream(&xstream), err);
    CHECK_ERR(ABT_self_get_xstream_rank(&rank), err);
    CHECK_ERR(ABT_self_get_thread(&thread), err);
    CHECK_ERR(ABT_self_get_thread_id(&id), err);
    ABT_unit_type type = ABT_UNIT_TYPE_THREAD;
    CHECK_ERR(ABT_self_get_type(&type), err);
    CHECK_EQ(type, ABT_UNIT_TYPE_EXT);
    ABT_bool b = ABT_TRUE;
    CHECK_ERR(ABT_self_is_primary(&b), err);
    CHECK_EQ(b, ABT_FALSE);
    b = ABT_TRUE;
    CHECK_ERR(ABT_self_on_primary_xstream(&b), err);
    CHECK_EQ(b, ABT_FALSE);
    CHECK_ERR(ABT_self_is_unnamed(&b), err);
    ABT_pool last_pool;
    CHECK_ERR(ABT_self_get_last_pool(&last_pool), err);
    int pool_id = 7;
    CHECK_ERR(ABT_self_get_last_pool_id(&pool_id), err);
    CHECK_EQ(pool_id, -1);
    CHECK_ERR(ABT_self_set_associated_pool(pool), err);
    ABT_unit unit;
    CHECK_ERR(ABT_self_get_unit(&unit), err);
    CHECK_ERR(ABT_self_yield(), err);
    CHECK_ERR(ABT_self_yield_to(ult), err);
    CHECK_ERR(ABT_self_resume_yield_to(ult), err);
    CHECK_ERR(ABT_self_suspend(), err);
    CHECK_ERR(ABT_self_suspend_to(ult), err);
    CHECK_ERR(ABT_self_resume_suspend_to(ult), err);
    CHECK_ERR(ABT_self_exit(), err);
    CHECK_ERR(ABT_self_exit_to(ult), err);
    CHECK_ERR(ABT_self_resume_exit_to(ult), err);
    CHECK_ERR(ABT_self_schedule(ult, ABT_POOL_NULL), err);
    CHECK_ERR(ABT_self_set_arg(NULL), err);
    void *arg = (void *)0x10;
    CHECK_ERR(ABT_self_get_arg(&arg), err);
    CHECK(arg == NULL);
    void (*f)(void *);
    CHECK_ERR(ABT_self_get_thread_func(&f), err);
}

#endif
