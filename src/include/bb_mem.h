/*
 * Memory for work units: descriptors and stacks.
 *
 * Each ES keeps LIFO caches of free descriptors, of free default-size
 * stacks, and of descriptors that keep their default-size stack (a freed ULT). Allocation and release on one ES touch only that ES's cache: no
 * lock, no atomic instruction. A unit released on another ES (or by an
 * external thread) simply goes to that ES's cache: memory is not tied to the
 * ES that made it. Caches are bounded: past the limit, half of a cache moves
 * in one batch to a global depot (one lock per batch), from which an ES with
 * an empty cache refills; past the depot's own limit memory returns to the
 * operating system. External threads use the depot directly.
 *
 * Stacks come from mmap with a guard page below them while the process has
 * mappings to spare (see bb_config.h); a stack that overflows into its guard
 * page faults instead of corrupting its neighbour.
 */
#ifndef BB_MEM_H
#define BB_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "bb_unit.h"

typedef struct bb_free_item {
    struct bb_free_item *next;
    uint32_t flags; /* stacks: the bb_unit_flags describing them */
} bb_free_item;

typedef struct {
    bb_free_item *ults;        /* descriptors that still own a default-size stack */
    uint32_t num_ults;
    bb_free_item *descs;       /* bare descriptors */
    uint32_t num_descs;
    bb_free_item *stacks;      /* default-size stacks on their own */
    uint32_t num_stacks;
} bb_mem_cache;

/* Cache-line aligned memory for objects that different ESs write. */
void *bb_mem_alloc_aligned(size_t size);

int bb_mem_init(void);
void bb_mem_fini(void);
void bb_mem_cache_flush(bb_mem_cache *cache);

bb_unit *bb_mem_desc_alloc(bb_mem_cache *cache);
void bb_mem_desc_free(bb_mem_cache *cache, bb_unit *u);

/* A descriptor together with a default-size stack: the common ULT. A freed
 * ULT keeps its stack, so creating one is a single pop from this cache.
 * Sets u->stack, u->stacksize and the stack bits of u->flags; the caller
 * initializes every other field. */
bb_unit *bb_mem_ult_alloc(bb_mem_cache *cache);
void bb_mem_ult_free(bb_mem_cache *cache, bb_unit *u);

/* *flags receives BB_UNIT_CACHED_STACK / BB_UNIT_GUARDED_STACK. */
int bb_mem_stack_alloc(bb_mem_cache *cache, size_t size, void **stack, uint32_t *flags);
void bb_mem_stack_free(bb_mem_cache *cache, void *stack, size_t size, uint32_t flags);

#endif
