/*
 * Context switch for x86-64, System V ABI, ELF.
 *
 * A saved context is nothing but a stack pointer. Below it, on the stack the
 * context was running on, lies this 64-byte frame (offsets from the saved sp):
 *
 *    0   MXCSR (4 bytes) | x87 control word (2 bytes) | padding (2 bytes)
 *    8   r15
 *   16   r14
 *   24   r13
 *   32   r12
 *   40   rbx
 *   48   rbp
 *   56   return address (where the context resumes)
 *
 * The saved sp is always 16-byte aligned, so a callback run "on top" of the
 * target context (the `fn` argument) is called with a conforming stack.
 *
 * Eight primitives (see src/include/bb_ctx.h for the C view):
 *   bb_ctx_make(base, size, entry, arg) -> sp of a fresh context
 *   bb_ctx_jump(&save, sp, fn, arg)    save here, switch to sp, run fn(arg)
 *   bb_ctx_swap(&save, sp)             save here, switch to sp
 *   bb_ctx_start(&save, base, size, entry, arg)
 *                                      save here, call entry(arg) on a new stack
 *   bb_ctx_call(&save, base, size, entry, arg)
 *                                      save here, call entry(arg) on a new stack;
 *                                      if entry returns, return here too
 *   bb_ctx_run_on(base, size, entry, arg)
 *                                      call entry(arg) on a new stack, saving
 *                                      only what its return needs
 *   bb_ctx_exit(sp, fn, arg)           switch to sp without saving, run fn(arg)
 *   bb_ctx_exit_start(base, size, fn, arg, entry, entry_arg)
 *                                      move to a new stack without saving, run
 *                                      fn(arg), then entry(entry_arg)
 */

    .text

/* Call frame information of this file (bb_ctx_run_on's) goes to
 * .debug_frame only, for debuggers. Not to .eh_frame, which exception
 * unwinding and backtrace() read: for them every ULT's stack ends at its
 * first frame, as under bb_ctx_start, since the frames beyond may be gone
 * (see bb_ctx_run_on). */
    .cfi_sections .debug_frame

/* Push the frame described above: the callee-saved registers, then the
 * FPU control state. */
    .macro  save_frame
    pushq   %rbp
    pushq   %rbx
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    subq    $8, %rsp
    stmxcsr (%rsp)
    fnstcw  4(%rsp)
    .endm

/* Pop that frame and resume where it was pushed, with eax = 0: a yield
 * may end by a jump to bb_ctx_swap (a tail call), and then the switch that
 * resumes it returns the yield's ABT_SUCCESS. */
    .macro  restore_frame
    xorl    %eax, %eax
    ldmxcsr (%rsp)
    fldcw   4(%rsp)
    addq    $8, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbx
    popq    %rbp
    ret
    .endm

/* void *bb_ctx_make(void *stack_base, size_t size, void (*entry)(void *), void *arg) */
    .globl  bb_ctx_make
    .hidden bb_ctx_make
    .type   bb_ctx_make, @function
    .p2align 4
bb_ctx_make:
    leaq    (%rdi,%rsi), %rax           /* rax = top of the new stack */
    andq    $-16, %rax                  /* align it down to 16 bytes */
    subq    $64, %rax                   /* room for one frame */
    stmxcsr (%rax)                      /* the new context inherits SSE control */
    fnstcw  4(%rax)                     /* and the x87 control word */
    movq    $0, 8(%rax)                 /* r15 */
    movq    $0, 16(%rax)                /* r14 */
    movq    %rcx, 24(%rax)              /* r13 = arg, read by the trampoline */
    movq    %rdx, 32(%rax)              /* r12 = entry, read by the trampoline */
    movq    $0, 40(%rax)                /* rbx */
    movq    $0, 48(%rax)                /* rbp = 0 ends a debugger's backtrace */
    leaq    bb_ctx_trampoline(%rip), %rcx
    movq    %rcx, 56(%rax)              /* first resume lands in the trampoline */
    ret
    .size   bb_ctx_make, .-bb_ctx_make

/* void bb_ctx_jump(void **save_sp, void *target_sp, void (*fn)(void *), void *arg) */
    .globl  bb_ctx_jump
    .hidden bb_ctx_jump
    .type   bb_ctx_jump, @function
    .p2align 4
bb_ctx_jump:
    save_frame                          /* callee-saved registers, FPU control */
    movq    %rsp, (%rdi)                /* publish where this context stopped */
    movq    %rsi, %rsp                  /* now on the target's stack */
.Lresume:
    testq   %rdx, %rdx                  /* a callback to run on top? */
    jz      .Lrestore
    movq    %rcx, %rdi                  /* fn(arg), on the target's stack */
    callq   *%rdx
.Lrestore:
    restore_frame                       /* the target's FPU control and registers */
    .size   bb_ctx_jump, .-bb_ctx_jump

/* int bb_ctx_swap(void **save_sp, void *target_sp): bb_ctx_jump without a
 * callback, for the switches of yield and yield_to, which need none: the
 * test for one is gone, and so are the caller's two zeroed arguments.
 * Returns 0 when the saved context resumes (restore_frame), so that a yield
 * can end by a tail call of it. */
    .globl  bb_ctx_swap
    .hidden bb_ctx_swap
    .type   bb_ctx_swap, @function
    .p2align 4
bb_ctx_swap:
    save_frame
    movq    %rsp, (%rdi)                /* publish where this context stopped */
    movq    %rsi, %rsp                  /* now on the target's stack */
    restore_frame
    .size   bb_ctx_swap, .-bb_ctx_swap

/* void bb_ctx_start(void **save_sp, void *base, size_t size, void (*entry)(void *),
 *                   void *arg): no return here; the saved context resumes.
 * bb_ctx_make + bb_ctx_jump in one step, minus what a fresh context never
 * needs: no frame is written on the new stack and nothing is restored; the
 * new context inherits the FPU control state of the one that starts it. */
    .globl  bb_ctx_start
    .hidden bb_ctx_start
    .type   bb_ctx_start, @function
    .p2align 4
bb_ctx_start:
    save_frame                          /* the same frame as bb_ctx_jump's */
    movq    %rsp, (%rdi)                /* publish where this context stopped */
    leaq    (%rsi,%rdx), %rsp           /* now on top of the new stack ... */
    andq    $-16, %rsp                  /* ... aligned for the call */
    xorl    %ebp, %ebp                  /* rbp = 0 ends a debugger's backtrace */
    movq    %r8, %rdi
    callq   *%rcx                       /* entry(arg) */
    ud2                                 /* entry returned: a runtime bug */
    .size   bb_ctx_start, .-bb_ctx_start

/* void bb_ctx_call(void **save_sp, void *base, size_t size, void (*entry)(void *),
 *                  void *arg): bb_ctx_start, except that entry may return, and
 * then so does this. The saved frame is still the caller's own (nothing ran
 * on it meanwhile): its address waits in rbx, which entry preserves, and
 * the registers are restored from it as a switch back would. If instead a
 * switch resumes the saved context, this returns the same way. */
    .globl  bb_ctx_call
    .hidden bb_ctx_call
    .type   bb_ctx_call, @function
    .p2align 4
bb_ctx_call:
    save_frame                          /* the same frame as bb_ctx_jump's */
    movq    %rsp, (%rdi)                /* publish where this context stopped */
    movq    %rsp, %rbx                  /* and remember it across entry */
    leaq    (%rsi,%rdx), %rsp           /* now on top of the new stack ... */
    andq    $-16, %rsp                  /* ... aligned for the call */
    xorl    %ebp, %ebp                  /* rbp = 0 ends a debugger's backtrace */
    movq    %r8, %rdi
    callq   *%rcx                       /* entry(arg) */
    movq    %rbx, %rsp                  /* it returned: back to the saved frame */
    jmp     .Lrestore
    .size   bb_ctx_call, .-bb_ctx_call

/* void bb_ctx_run_on(void *base, size_t size, void (*entry)(void *), void *arg):
 * call entry(arg) on top of another stack, as a function. Nothing is
 * published: the caller's context can only be resumed by entry's return,
 * which preserves the callee-saved registers by itself; only the stack
 * pointer (in rbp, callee-saved) and the FPU control state (which a ULT may
 * change, and bb_ctx_call restores too) are kept. If entry leaves for good
 * instead, this frame is simply abandoned (the SCHED_RESTART step). The CFI
 * lets a debugger walk from entry back into the caller; it is in
 * .debug_frame only (top of the file): once entry has left, the caller
 * restarts and overwrites the frames it leads to, and the runtime's unwinder,
 * run by a profiler's signal handler or an exception in a ULT, would walk
 * into them and crash (tests/test_regress_unwind_stale_sched_frames.c). */
    .globl  bb_ctx_run_on
    .hidden bb_ctx_run_on
    .type   bb_ctx_run_on, @function
    .p2align 4
bb_ctx_run_on:
    .cfi_startproc
    pushq   %rbp
    .cfi_def_cfa_offset 16
    .cfi_offset %rbp, -16
    movq    %rsp, %rbp                  /* the way back, across entry */
    .cfi_def_cfa_register %rbp
    subq    $16, %rsp                   /* keeps the 16-byte alignment */
    stmxcsr (%rsp)
    fnstcw  4(%rsp)
    leaq    (%rdi,%rsi), %rsp           /* now on top of the new stack ... */
    andq    $-16, %rsp                  /* ... aligned for the call */
    movq    %rcx, %rdi
    callq   *%rdx                       /* entry(arg) */
    ldmxcsr -16(%rbp)                   /* it returned: the caller's FPU control */
    fldcw   -12(%rbp)
    movq    %rbp, %rsp
    popq    %rbp
    .cfi_def_cfa %rsp, 8
    ret
    .cfi_endproc
    .size   bb_ctx_run_on, .-bb_ctx_run_on

/* void bb_ctx_exit(void *target_sp, void (*fn)(void *), void *arg): no return.
 * Used by a finishing ULT: its registers are dead, so nothing is saved. */
    .globl  bb_ctx_exit
    .hidden bb_ctx_exit
    .type   bb_ctx_exit, @function
    .p2align 4
bb_ctx_exit:
    movq    %rdi, %rsp                  /* leave this stack for good */
    movq    %rdx, %rcx                  /* arg, where bb_ctx_jump keeps it */
    movq    %rsi, %rdx                  /* fn, likewise */
    jmp     .Lresume
    .size   bb_ctx_exit, .-bb_ctx_exit

/* void bb_ctx_exit_start(void *base, size_t size, void (*fn)(void *), void *arg,
 *                        void (*entry)(void *), void *entry_arg): no return.
 * bb_ctx_make + bb_ctx_exit in one step: a finishing ULT hands its ES to one
 * that has not started. fn(arg) may be NULL. */
    .globl  bb_ctx_exit_start
    .hidden bb_ctx_exit_start
    .type   bb_ctx_exit_start, @function
    .p2align 4
bb_ctx_exit_start:
    leaq    (%rdi,%rsi), %rsp           /* leave this stack for good, for the top */
    andq    $-16, %rsp                  /* of the new one, aligned for the calls */
    xorl    %ebp, %ebp                  /* rbp = 0 ends a debugger's backtrace */
    movq    %r8, %r12                   /* entry and its argument survive fn */
    movq    %r9, %r13
    testq   %rdx, %rdx
    jz      1f
    movq    %rcx, %rdi
    callq   *%rdx                       /* fn(arg) */
1:  movq    %r13, %rdi
    callq   *%r12                       /* entry(entry_arg) */
    ud2                                 /* entry returned: a runtime bug */
    .size   bb_ctx_exit_start, .-bb_ctx_exit_start

/* First code a fresh context runs: entry(arg), which must never return. */
    .type   bb_ctx_trampoline, @function
    .p2align 4
bb_ctx_trampoline:
    movq    %r13, %rdi                  /* arg */
    callq   *%r12                       /* entry(arg); rsp is 16-byte aligned here */
    ud2                                 /* entry returned: a runtime bug */
    .size   bb_ctx_trampoline, .-bb_ctx_trampoline

    .section .note.GNU-stack,"",@progbits
