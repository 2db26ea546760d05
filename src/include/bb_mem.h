/*
 * Memory for work units: descriptors and stacks.
 *
 * Each ES keeps LIFO caches of free descriptors, of free default-size
 * stacks, and of descriptors that keep their default-size stack (a freed
 * ULT). Allocation and release on one ES touch only that ES's cache: no
 * lock, no atomic instruction. A unit released on another ES (or by an
 * external thread) simply goes to that ES's cache: memory is not tied to the
 * ES that made it. Caches are bounded: past the limit, half of a cache moves
 * in one batch to a global depot (one lock per batch), from which an ES with
 * an empty cache refills, in batches that grow from a few items to half
 * the bound as it keeps coming back. The depot keeps what it gets until ABT_finalize:
 * memory that was all in use at once before, so bounded by the peak (an ES
 * that ends empties its own cache: descriptors to the depot, stacks unmapped
 * or back to their slab). External threads use the depot directly.
 *
 * Stacks come from mmap with a guard page below them while the process has
 * mappings to spare (see bb_config.h); a stack that overflows into its guard
 * page faults instead of corrupting its neighbour. Default-size stacks
 * mapped without a guard page are carved from 2 MiB slabs (mem.c, "stack
 * slabs") when large-page regions are on (large_pages.c); one whose guard's
 * mprotect failed keeps its own plain mapping.
 */
#ifndef BB_MEM_H
#define BB_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bb_config.h"
#include "bb_unit.h"

typedef struct bb_free_item {
    struct bb_free_item *next;
    uint32_t flags; /* stacks: the bb_unit_flags describing them */
} bb_free_item;

/* Descriptors come from chunks that are never freed before ABT_finalize; the
 * list of chunks lets a debugger enumerate every unit (scripts/bobbin-gdb.py
 * relies on these field names). */
typedef struct bb_desc_chunk {
    struct bb_desc_chunk *next;
    uint32_t capacity;    /* descriptors the chunk has room for */
    uint32_t carved;      /* descriptors handed out so far: units[0 .. carved) */
    uint32_t desc_size;   /* bytes from one descriptor to the next */
    size_t mapped;        /* bytes of a large-page region it fills; 0: from malloc */
    _Alignas(64) char units[];
} bb_desc_chunk;

extern __attribute__((visibility("hidden"))) bb_desc_chunk *bb_desc_chunks;

/* Free stacks of one size other than the default (mem.c, "stacks of other
 * sizes"); size 0: the slot is unused. */
typedef struct {
    size_t size;
    bb_free_item *head;        /* linked as default-size stacks (bb_mem_stack_item) */
    uint32_t count;
    uint32_t max;
} bb_mem_other_stacks;

/* How many items the next refill of one list of a cache takes (refill). */
typedef struct {
    uint32_t ults, descs, stacks;
} bb_mem_refill_batches;

typedef struct {
    bb_free_item *ults;        /* descriptors that still own a default-size stack */
    uint32_t num_ults;
    uint32_t max_ults;         /* ABT_MEM_MAX_NUM_STACKS: the bound of each of `ults` and
                                  `stacks`, so up to twice that many default-size stacks */
    bb_free_item *descs;       /* bare descriptors */
    uint32_t num_descs;
    uint32_t max_descs;        /* ABT_MEM_MAX_NUM_DESCS */
    bb_free_item *stacks;      /* default-size stacks on their own (bb_mem_stack_item) */
    size_t stack_size;         /* the default size, ABT_THREAD_STACKSIZE */
    uint32_t num_stacks;
    bb_mem_other_stacks other[BB_OTHER_STACK_SIZES];
    bb_mem_refill_batches batch;
} bb_mem_cache;

/* Cache-line aligned memory for objects that different ESs write. */
void *bb_mem_alloc_aligned(size_t size);
/* The same, zeroed, and rounded up to whole cache lines, so that no other
 * object shares a line with it: for the runtime's objects that one ES
 * writes while others write their neighbours (pools, schedulers, ESs). */
void *bb_mem_calloc_lines(size_t size);

int bb_mem_init(void);
void bb_mem_fini(void);
/* Call `visit` on every descriptor that holds a unit, ended or not: at the
 * last ABT_finalize, the ones the program never freed. */
void bb_mem_for_each_unit(void (*visit)(bb_unit *u));
void bb_mem_cache_flush(bb_mem_cache *cache);

void bb_mem_cache_init(bb_mem_cache *cache);

/* The fast paths are inline: a pop or a push on the caller's own cache.
 * Everything else (refill from the depot, spill to it, the system
 * allocator, external threads with no cache) is out of line. */
bb_unit *bb_mem_desc_alloc_slow(bb_mem_cache *cache);
void bb_mem_desc_free_slow(bb_mem_cache *cache, bb_unit *u);
bb_unit *bb_mem_ult_alloc_slow(bb_mem_cache *cache);
void bb_mem_ult_free_slow(bb_mem_cache *cache, bb_unit *u);

static inline bb_unit *bb_mem_cache_pop(bb_free_item **head, uint32_t *count)
{
    bb_free_item *item = *head;
    *head = item->next;
    (*count)--;
    return (bb_unit *)item;
}

static inline void bb_mem_cache_push(bb_free_item **head, uint32_t *count, bb_unit *u)
{
    bb_free_item *item = (bb_free_item *)u;
    item->next = *head;
    *head = item;
    (*count)++;
}

static inline bb_unit *bb_mem_desc_alloc(bb_mem_cache *cache)
{
    if (cache && cache->descs)
        return bb_mem_cache_pop(&cache->descs, &cache->num_descs);
    return bb_mem_desc_alloc_slow(cache);
}

static inline void bb_mem_desc_free(bb_mem_cache *cache, bb_unit *u)
{
    if (cache && cache->num_descs < cache->max_descs)
        bb_mem_cache_push(&cache->descs, &cache->num_descs, u);
    else
        bb_mem_desc_free_slow(cache, u);
}

/* A descriptor together with a default-size stack: the common ULT. A freed
 * ULT keeps its stack, so creating one is a single pop from this cache.
 * Sets u->stack, u->stacksize and the stack bits of u->flags; the caller
 * initializes every other field. */
static inline bb_unit *bb_mem_ult_alloc(bb_mem_cache *cache)
{
    if (cache && cache->ults)
        return bb_mem_cache_pop(&cache->ults, &cache->num_ults);
    return bb_mem_ult_alloc_slow(cache);
}

static inline void bb_mem_ult_free(bb_mem_cache *cache, bb_unit *u)
{
    if (cache && cache->num_ults < cache->max_ults)
        bb_mem_cache_push(&cache->ults, &cache->num_ults, u);
    else
        bb_mem_ult_free_slow(cache, u);
}

/* A free default-size stack (of `size` bytes) is linked through a
 * bb_free_item at its top, in memory that the ULT which last used it has
 * touched (a stack grows down from there). At its base the link would make
 * one more page resident for each idle stack: twice the memory of 65,536
 * lazily lent stacks that all deviated. The link's offset from the stack's
 * base is aligned down for the link: a stack size of the user's
 * (ABT_thread_attr_set_stacksize) need not be a multiple of anything, while
 * every stack the library maps starts on a page (map_stack, slabs of
 * page-rounded default sizes). */
static inline size_t bb_mem_stack_item_offset(size_t size)
{
    return (size - sizeof(bb_free_item)) & ~(size_t)(_Alignof(bb_free_item) - 1);
}

static inline bb_free_item *bb_mem_stack_item(void *stack, size_t size)
{
    return (bb_free_item *)(void *)((char *)stack + bb_mem_stack_item_offset(size));
}

static inline void *bb_mem_item_stack(bb_free_item *item, size_t size)
{
    return item ? (char *)item - bb_mem_stack_item_offset(size) : NULL;
}

/* Default-size stacks on their own (given to ULTs at their first run, see
 * bb_technique.h): the caller's cache, inline. bb_mem_stack_alloc and
 * bb_mem_stack_free do the rest. */
static inline void *bb_mem_stack_cache_pop(bb_mem_cache *cache, uint32_t *flags)
{
    bb_free_item *item = cache->stacks;
    if (item) {
        cache->stacks = item->next;
        bb_owned_add(&cache->num_stacks, -1);
        *flags = item->flags;
    }
    return bb_mem_item_stack(item, cache->stack_size);
}

/* Returns false, keeping nothing, if the cache is full. */
static inline bool bb_mem_stack_cache_push(bb_mem_cache *cache, void *stack, uint32_t flags)
{
    if (cache->num_stacks >= cache->max_ults)
        return false;
    bb_free_item *item = bb_mem_stack_item(stack, cache->stack_size);
    item->next = cache->stacks;
    item->flags = flags;
    cache->stacks = item;
    bb_owned_add(&cache->num_stacks, 1);
    return true;
}

/* ---- large pages (large_pages.c) ----
 * Descriptor chunks, and the stacks of ULTs without a guard page, come in
 * regions of BB_LARGE_PAGE bytes backed by huge pages when
 * ABT_MEM_LP_ALLOC allows (bb_runtime.h: bb_large_pages). */
#define BB_LARGE_PAGE ((size_t)2 << 20)

enum bb_pages_kind { BB_PAGES_REGULAR, BB_PAGES_THP, BB_PAGES_HUGETLB, BB_PAGES_KINDS };

bool bb_large_pages_on(void);
/* A BB_LARGE_PAGE-aligned region of `len` bytes (a multiple of it), or NULL. */
void *bb_large_map(size_t len);
void bb_large_unmap(void *p, size_t len);
/* How many regions were mapped with each backing (a bb_pages_kind). */
unsigned bb_large_regions(int kind);
void bb_large_pages_reset(void);

/* *flags receives BB_UNIT_CACHED_STACK / BB_UNIT_GUARDED_STACK /
 * BB_UNIT_SLAB_STACK. */
int bb_mem_stack_alloc(bb_mem_cache *cache, size_t size, void **stack, uint32_t *flags);
void bb_mem_cache_lend(bb_mem_cache *cache);
void bb_mem_stack_free(bb_mem_cache *cache, void *stack, size_t size, uint32_t flags);

#endif
