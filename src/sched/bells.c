/*
 * The bells of schedulers (bb_bell.h, "Bells that outlive their owners").
 *
 * ABT_info_trigger_print_all_thread_stacks may run in a signal handler
 * while every ES sleeps on its scheduler's bell; it must wake one of them,
 * without a lock and without touching memory that may be freed meanwhile.
 * So the bells live in one list that only grows: a scheduler takes a free
 * entry (or adds one) and gives it back when it is destroyed. Entries are
 * pushed at the head with a compare-and-swap and never unlinked, so a walk
 * from any thread, or any signal handler, sees a well-formed list.
 */
#include <stdlib.h>

#include "bb_atomic.h"
#include "bb_bell.h"
#include "bb_runtime.h"

typedef struct bell_entry {
    bb_bell bell; /* first: a bell's address is its entry's */
    struct bell_entry *next;
    uint32_t taken; /* atomic */
} bell_entry;

static bell_entry *entries; /* atomic; only grows */

bb_bell *bb_bell_take(void)
{
    for (bell_entry *e = bb_load_acquire(&entries); e; e = e->next) {
        uint32_t free_entry = 0;
        if (__atomic_compare_exchange_n(&e->taken, &free_entry, 1u, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_RELAXED)) {
            bb_bell_arm(&e->bell, 0);
            return &e->bell;
        }
    }
    bell_entry *e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    e->taken = 1;
    e->next = bb_load_relaxed(&entries);
    while (!__atomic_compare_exchange_n(&entries, &e->next, e, false, __ATOMIC_RELEASE,
                                        __ATOMIC_RELAXED)) {
    }
    return &e->bell;
}

void bb_bell_give_back(bb_bell *b)
{
    bb_bell_arm(b, 0);
    bb_store_release(&((bell_entry *)(void *)b)->taken, 0u);
}

/* Atomic loads, an atomic add and a futex system call per sleeper: safe
 * in a signal handler. */
void bb_bells_ring_armed(void)
{
    for (bell_entry *e = bb_load_acquire(&entries); e; e = e->next)
        if (bb_load_acquire(&e->taken) && bb_bell_is_armed(&e->bell))
            bb_bell_ring(&e->bell);
}

/* When the library is unloaded (dlclose) the list would be lost with
 * `entries`: give it back then, unless the runtime is still up (at exit,
 * other threads may still walk it). With the runtime down no scheduler holds
 * a bell, and the only walker (the dump's trigger) returns before walking. */
__attribute__((destructor)) static void free_entries(void)
{
    if (bb_is_up())
        return;
    bell_entry *e = bb_load_acquire(&entries);
    bb_store_release(&entries, (bell_entry *)NULL);
    while (e) {
        bell_entry *next = e->next;
        free(e);
        e = next;
    }
}
