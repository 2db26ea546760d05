/* Regression: user code that the runtime calls from one of the user's own
 * calls must be the outermost frame for exception unwinding, as a unit run
 * by a scheduler is (at the bottom of the scheduler's stack):
 *
 *   SELF_SCHEDULE      a tasklet run by ABT_self_schedule
 *   XSTREAM_RUN_UNIT   a tasklet run by ABT_xstream_run_unit
 *   FUTURE_CALLBACK    a future's callback, run by the last ABT_future_set
 *   KEY_DESTRUCTOR     a key's destructor, run when ABT_task_free frees a
 *                      tasklet that holds a value of the key
 *
 * Each ran as a plain call on the caller's stack: a C++ exception escaping
 * it unwound through the library into the caller, whose `try` around the
 * call caught it, leaving the tasklet "running" on the ES (ABT_self_get_type
 * said TASK), or the future for ever not ready.
 *
 * Exceptions find their handlers with the same walk as _Unwind_Backtrace,
 * which C can call: each caller marks its frame, and the callback walks
 * its stack; the walk must stop before a frame at or above the mark
 * (test_regress_tasklet_unwind_escape.c does the same for the join
 * bypass). */
#include <stdint.h>
#include <unwind.h>
#include "bb_test.h"

static uintptr_t caller_mark; /* an address in the calling frame */
static int frames, past_caller, same_stack, ran;

static _Unwind_Reason_Code on_frame(struct _Unwind_Context *ctx, void *arg)
{
    (void)arg;
    frames++;
    if (_Unwind_GetCFA(ctx) > caller_mark)
        past_caller++;
    return _URC_NO_REASON;
}

/* What each callback does: count itself, and walk its stack if it is the
 * caller's. */
static __attribute__((noinline)) void walk_from_callback(void)
{
    volatile char here = 0;
    ran++;
    uintptr_t at = (uintptr_t)&here;
    same_stack = at < caller_mark && caller_mark - at < (1u << 20);
    if (same_stack)
        _Unwind_Backtrace(on_frame, NULL);
}

static void tasklet(void *arg)
{
    (void)arg;
    walk_from_callback();
}

static void future_callback(void **values)
{
    (void)values;
    walk_from_callback();
}

static void destructor(void *value)
{
    (void)value;
    walk_from_callback();
}

static void no_op(void *arg)
{
    (void)arg;
}

enum { SELF_SCHEDULE, XSTREAM_RUN_UNIT, FUTURE_CALLBACK, KEY_DESTRUCTOR, N_WAYS };

/* A tasklet of `pool` (which no scheduler serves), popped again, as a
 * scheduler takes a unit before it runs it. */
static ABT_task popped_tasklet(ABT_pool pool, void (*fn)(void *))
{
    ABT_task t;
    CHECK_OK(ABT_task_create(pool, fn, NULL, &t));
    ABT_thread popped = ABT_THREAD_NULL;
    CHECK_OK(ABT_pool_pop_thread(pool, &popped));
    CHECK(popped == t);
    return t;
}

static __attribute__((noinline)) void call_one(ABT_pool pool, ABT_key key, int way)
{
    volatile char mark = 0;
    caller_mark = (uintptr_t)&mark;
    if (way == SELF_SCHEDULE || way == XSTREAM_RUN_UNIT) {
        ABT_task t = popped_tasklet(pool, tasklet);
        if (way == SELF_SCHEDULE) {
            CHECK_OK(ABT_self_schedule(t, ABT_POOL_NULL));
        } else {
            ABT_unit unit;
            CHECK_OK(ABT_thread_get_unit(t, &unit));
            CHECK_OK(ABT_xstream_run_unit(unit, pool));
        }
        CHECK_OK(ABT_task_free(&t));
    } else if (way == FUTURE_CALLBACK) {
        ABT_future f;
        CHECK_OK(ABT_future_create(1, future_callback, &f));
        CHECK_OK(ABT_future_set(f, NULL));
        CHECK_OK(ABT_future_wait(f));
        CHECK_OK(ABT_future_free(&f));
    } else {
        ABT_task t;
        CHECK_OK(ABT_task_create(bb_test_main_pool(), no_op, NULL, &t));
        CHECK_OK(ABT_thread_set_specific(t, key, (void *)caller_mark));
        CHECK_OK(ABT_task_join(t));
        CHECK_EQ(ran, 0);
        CHECK_OK(ABT_task_free(&t)); /* its destructor runs here, on this stack */
    }
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool; /* served by nobody: the test runs its tasklets itself */
    CHECK_OK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_FALSE, &pool));
    ABT_key key;
    CHECK_OK(ABT_key_create(destructor, &key));
    for (int way = 0; way < N_WAYS; way++) {
        frames = past_caller = same_stack = ran = 0;
        call_one(pool, key, way);
        CHECK_EQ(ran, 1);
        if (same_stack) {
            CHECK(frames >= 1); /* the callback's own frame, at least */
            if (past_caller)
                BB_FAIL_AT("way %d: the unwinder walked from the callback into its caller "
                           "(%d of %d frames)",
                           way, past_caller, frames);
        }
    }
    ABT_unit_type type;
    CHECK_OK(ABT_self_get_type(&type));
    CHECK_EQ(type, ABT_UNIT_TYPE_THREAD);
    CHECK_OK(ABT_key_free(&key));
    CHECK_OK(ABT_pool_free(&pool));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
