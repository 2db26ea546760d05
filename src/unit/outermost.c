/*
 * bb_call_outermost: fn(arg) in a frame that exception unwinding cannot
 * walk past.
 *
 * A unit's function normally starts at the bottom of a stack (a ULT's own,
 * or a scheduler's), so a C++ exception that escapes it finds no frame
 * beyond and ends in std::terminate. The join bypass runs a tasklet as a
 * plain call on the primary ULT's stack instead (hotpath.c): there an
 * escaping exception would unwind through the library's frames into the
 * joiner and could be caught by a `try` around ABT_thread_join or
 * ABT_task_free, leaving the tasklet "running" and the primary ULT taken
 * for it (tests/test_regress_tasklet_unwind_escape.c). The same holds for a
 * tasklet run by the user's ABT_self_schedule or ABT_xstream_run_unit
 * (switch.c), and for the callbacks the runtime calls from the user's own
 * calls: key destructors (key.c) and a future's callback (future.c).
 *
 * This file is compiled without unwind tables (CMakeLists.txt): the unwinder
 * finds no frame description for this function, takes it for the end of
 * the stack, and the exception ends in std::terminate as anywhere else.
 * With -g the compiler still writes .debug_frame, so debuggers walk on.
 */
#include "bb_unit.h"

__attribute__((noinline)) void bb_call_outermost(void (*fn)(void *), void *arg)
{
    fn(arg);
    /* Not a tail call: this frame must be on the stack while fn runs. */
    __asm__ __volatile__("" ::: "memory");
}
