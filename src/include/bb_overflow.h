/*
 * Stack overflow diagnostics (src/os/linux/os_overflow.c): a ULT that runs
 * into the guard page below its stack gets a message naming it (ID,
 * function, stack) instead of silent corruption or an anonymous crash. The
 * fault handler runs on a per-thread alternate signal stack, since the
 * ULT's own stack is exhausted; a fault that is not a guard hit goes to the
 * handler that was there before.
 */
#ifndef BB_OVERFLOW_H
#define BB_OVERFLOW_H

/* At the first ABT_init / the last ABT_finalize. */
void bb_overflow_install(void);
void bb_overflow_uninstall(void);

/* On every thread that runs an ES, when it starts and when it stops. */
void bb_overflow_thread_enter(void);
void bb_overflow_thread_leave(void);

#endif
