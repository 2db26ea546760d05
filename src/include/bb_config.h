/* Tunables of the runtime, in one place, with their sanity checks beside them.
 * Each default can be overridden at ABT_init by the environment variable named
 * in the comment (see README.md, "Environment"). */
#ifndef BB_CONFIG_H
#define BB_CONFIG_H

#include <stddef.h>

/* Size of a cache line on the machines we target; used to keep data written
 * by different execution streams apart. */
#define BB_CACHE_LINE 64

/* Default ULT stack size (ABT_THREAD_STACKSIZE). Argobots uses 16 KiB too. */
#define BB_DEFAULT_THREAD_STACKSIZE ((size_t)16 * 1024)

/* Default stack size of a scheduler (ABT_SCHED_STACKSIZE): every main and
 * stacked scheduler, except a predefined main one under the SC step, which
 * runs on a ULT-size stack (make_sched_unit in xstream.c). */
#define BB_DEFAULT_SCHED_STACKSIZE ((size_t)4 * 1024 * 1024)

/* Smallest stack we accept from a user; below this a ULT cannot even call
 * printf safely. */
#define BB_MIN_STACKSIZE ((size_t)4 * 1024)

/* How many free stacks / descriptors one ES keeps for reuse, per list
 * (ABT_MEM_MAX_NUM_STACKS bounds each of the ULTs-with-a-stack list and the
 * bare-stack list; ABT_MEM_MAX_NUM_DESCS the bare descriptors). Past that,
 * half of the list moves to a global depot shared by all ESs. */
#define BB_DEFAULT_MEM_MAX_NUM_STACKS 1024
#define BB_DEFAULT_MEM_MAX_NUM_DESCS 4096

/* How many scheduling iterations pass between two checks of an ES's events
 * (stop requests) by the basic scheduler, unless ABT_SCHED_EVENT_FREQ or
 * ABT_sched_basic_freq says otherwise. */
#define BB_DEFAULT_SCHED_EVENT_FREQ 50
/* What Argobots reports for ABT_SCHED_SLEEP_NSEC unset (it sleeps only if set). */
#define BB_DEFAULT_SCHED_SLEEP_NSEC 100
/* The longest sleep per round it allows (config.c). */
#define BB_MAX_SCHED_SLEEP_NSEC 999999999

/* An idle scheduler keeps polling its pools for this long (nanoseconds)
 * before it gives the CPU away: a polling one then calls sched_yield() at
 * each empty round, so that oversubscribed machines still make progress
 * (or sleeps ABT_SCHED_SLEEP_NSEC, if that is set); a
 * BASIC_WAIT one goes to sleep. Work that comes back within it (the reply in
 * a ping-pong between ESs) finds the ES awake, without a system call on
 * either side. A BASIC_WAIT scheduler stops polling once it has polled in
 * vain BB_IDLE_VAIN_SPINS times in a row (src/sched/basic.c says why). */
#define BB_IDLE_SPIN_NS 50000
#define BB_IDLE_VAIN_SPINS 2

/* Besides default-size stacks, each ES keeps free stacks of up to this many
 * other sizes (ULTs given a stack size of their own, schedulers with a
 * stack), each size up to min(ABT_MEM_MAX_NUM_STACKS, BB_OTHER_STACKS_BYTES /
 * size) stacks (src/mem/mem.c, "stacks of other sizes"). */
#define BB_OTHER_STACK_SIZES 4
#define BB_OTHER_STACKS_BYTES ((size_t)64 << 20)

/* The first refill of an ES's cache from the depot takes this many items;
 * each next one of the same list twice as many, up to half the cache's
 * bound (src/mem/mem.c, refill). An ES that needs one stack then does not
 * take hundreds that another ES would have used. */
#define BB_REFILL_FIRST 8

/* How many free ULTs (descriptor and stack) an ES keeps when it goes to
 * sleep; the rest of its cache goes to the shared depot for busy ESs. */
#define BB_IDLE_CACHE_KEEP 16

/* Descriptors per chunk when ABT_MEM_LP_ALLOC=malloc (or no large-page
 * region can be mapped): one system allocation per 64 units, and a list a
 * debugger can walk. Otherwise a chunk fills one 2 MiB region (src/mem/mem.c,
 * new_chunk). */
#define BB_DESC_CHUNK_UNITS 64

/* Guard pages split a mapping in two, and the kernel caps the number of
 * mappings (vm.max_map_count, 65530 by default). Stacks stop getting guard
 * pages once guarded stacks would use more than this share of the cap. */
#define BB_GUARD_MAP_SHARE_NUM 1
#define BB_GUARD_MAP_SHARE_DEN 2

/* Under valgrind, which tracks mappings in a fixed table, at most this many
 * stacks get a guard page (src/mem/mem.c). */
#define BB_VALGRIND_MAX_GUARDED 1024

_Static_assert((BB_CACHE_LINE & (BB_CACHE_LINE - 1)) == 0, "cache line is a power of two");
_Static_assert(BB_DEFAULT_THREAD_STACKSIZE >= BB_MIN_STACKSIZE, "default stack too small");
_Static_assert(BB_DEFAULT_SCHED_STACKSIZE >= BB_MIN_STACKSIZE, "sched stack too small");
_Static_assert(BB_DEFAULT_MEM_MAX_NUM_STACKS >= 2, "cache must hold a batch");
_Static_assert(BB_DEFAULT_SCHED_EVENT_FREQ > 0, "event frequency must be positive");
_Static_assert(BB_GUARD_MAP_SHARE_NUM < BB_GUARD_MAP_SHARE_DEN, "guards may not use all mappings");

#endif
