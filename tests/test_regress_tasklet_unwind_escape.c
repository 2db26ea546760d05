/* Regression: a tasklet that the join bypass runs on the primary ULT's stack
 * must be the outermost frame for exception unwinding, as a unit run by a
 * scheduler is (at the bottom of the scheduler's stack).
 *
 * The join bypass calls a tasklet joinee as a plain function on the joiner's
 * stack when the joiner is the primary ULT. A C++ exception escaping the
 * tasklet then unwound through the library into the joiner: a `try` around
 * ABT_task_free caught it, with the tasklet still "running" and the primary
 * ULT taken for it (ABT_self_get_type said TASK, ABT_finalize failed).
 * Elsewhere an escaping exception finds the end of the stack and ends in
 * std::terminate.
 *
 * Exceptions find their handlers with the same walk as _Unwind_Backtrace,
 * which C can call: each joiner below marks its frame, and the tasklet walks
 * its stack. The walk must stop before it reaches a frame at or above the
 * mark (it used to go on to main). Run under every joining call. */
#include <stdint.h>
#include <unwind.h>
#include "bb_test.h"

static uintptr_t joiner_mark; /* an address in the joiner's frame */
static int frames, past_joiner, same_stack, ran;

static _Unwind_Reason_Code on_frame(struct _Unwind_Context *ctx, void *arg)
{
    (void)arg;
    frames++;
    if (_Unwind_GetCFA(ctx) > joiner_mark)
        past_joiner++;
    return _URC_NO_REASON;
}

static __attribute__((noinline)) void tasklet(void *arg)
{
    volatile char here = 0;
    (void)arg;
    ran++;
    /* Only a tasklet on the joiner's own stack can be compared with it. */
    uintptr_t at = (uintptr_t)&here;
    same_stack = at < joiner_mark && joiner_mark - at < (1u << 20);
    if (same_stack)
        _Unwind_Backtrace(on_frame, NULL);
}

enum { BY_TASK_FREE, BY_THREAD_FREE, BY_TASK_JOIN, BY_THREAD_JOIN, N_WAYS };

static __attribute__((noinline)) void join_one(ABT_pool pool, int way)
{
    volatile char mark = 0;
    joiner_mark = (uintptr_t)&mark;
    ABT_task t;
    CHECK_OK(ABT_task_create(pool, tasklet, NULL, &t));
    if (way == BY_TASK_JOIN)
        CHECK_OK(ABT_task_join(t));
    else if (way == BY_THREAD_JOIN)
        CHECK_OK(ABT_thread_join(t));
    if (way == BY_THREAD_FREE)
        CHECK_OK(ABT_thread_free(&t));
    else
        CHECK_OK(ABT_task_free(&t));
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));
    ABT_pool pool = bb_test_main_pool();
    for (int way = 0; way < N_WAYS; way++) {
        frames = past_joiner = same_stack = ran = 0;
        join_one(pool, way);
        CHECK_EQ(ran, 1);
        if (same_stack) {
            CHECK(frames >= 1); /* the tasklet's own frame, at least */
            if (past_joiner)
                BB_FAIL_AT("way %d: the unwinder walked from the tasklet into its joiner "
                           "(%d of %d frames)", way, past_joiner, frames);
        }
    }
    ABT_unit_type type;
    CHECK_OK(ABT_self_get_type(&type));
    CHECK_EQ(type, ABT_UNIT_TYPE_THREAD);
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
