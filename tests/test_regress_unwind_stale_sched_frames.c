/* Regression: exception unwinding (and backtrace(), which profilers call from
 * signal handlers) must not walk from a ULT into frames of a scheduler it
 * has left.
 *
 * Under ss and ss-l (and auto when it picks ss) a restartable scheduler
 * calls a ULT on the ULT's stack through bb_ctx_run_on without saving its
 * own context; once the ULT deviates (yields, blocks, migrates) the
 * scheduler restarts afresh and its old frames are overwritten. The
 * unwind information of bb_ctx_run_on still led from the ULT's stack into
 * those frames: a SIGPROF handler calling backtrace() in such a ULT crashed
 * inside libgcc's unwinder (found with setitimer profiling), and an
 * exception escaping the ULT was searched for in whatever the restarted
 * scheduler had put there.
 *
 * Each ULT here deviates, then walks its stack with _Unwind_Backtrace (the
 * walk exceptions use): every frame found must lie on the ULT's own stack
 * (ABT_thread_get_stack). Under every technique, on both ESs. */
#include <stdint.h>
#include <unwind.h>
#include "technique_util.h"

typedef struct {
    uintptr_t lo, hi;
    int frames, outside;
} walk;

static _Unwind_Reason_Code on_frame(struct _Unwind_Context *ctx, void *arg)
{
    walk *w = arg;
    uintptr_t cfa = _Unwind_GetCFA(ctx);
    w->frames++;
    if (cfa < w->lo || cfa > w->hi)
        w->outside++;
    return _URC_NO_REASON;
}

static ABT_pool pools[2];

static __attribute__((noinline)) void check_walk(void)
{
    ABT_thread self;
    void *stack = NULL;
    size_t size = 0;
    UCHECK_OK(ABT_thread_self(&self));
    UCHECK_OK(ABT_thread_get_stack(self, &stack, &size));
    walk w = {(uintptr_t)stack, (uintptr_t)stack + size, 0, 0};
    UCHECK(stack != NULL);
    _Unwind_Backtrace(on_frame, &w);
    UCHECK(w.frames >= 1);
    if (w.outside)
        fprintf(stderr, "[%s] %d of %d frames off the ULT's stack\n", tq_name, w.outside,
                w.frames);
    UCHECK(w.outside == 0);
}

static void ult(void *arg)
{
    int i = (int)(intptr_t)arg;
    ABT_thread self;
    UCHECK_OK(ABT_thread_self(&self));
    for (int k = 0; k < 4; k++) {
        UCHECK_OK(ABT_thread_yield()); /* deviate: its scheduler restarts */
        check_walk();
        UCHECK_OK(ABT_thread_migrate_to_pool(self, pools[(i + k + 1) % 2]));
        check_walk();
    }
}

int main(void)
{
    BB_TEST_BEGIN(60);
    for (int t = 0; t < TQ_NUM; t++) {
        tq_init(t);
        ABT_xstream es;
        CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
        pools[0] = bb_test_main_pool();
        CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));
        ABT_thread ts[8];
        for (int i = 0; i < 8; i++)
            CHECK_OK(ABT_thread_create(pools[i % 2], ult, (void *)(intptr_t)i,
                                       ABT_THREAD_ATTR_NULL, &ts[i]));
        for (int i = 0; i < 8; i++)
            CHECK_OK(ABT_thread_free(&ts[i]));
        CHECK_OK(ABT_xstream_free(&es));
        CHECK_OK(ABT_finalize());
        tq_collect_ult_failures();
    }
    BB_TEST_END();
}
