/*
 * Descriptor and stack caches (see bb_mem.h for the design).
 *
 * Free items are threaded through the free memory itself: a free descriptor
 * or stack starts with a bb_free_item. Per-ES caches are touched only by their
 * ES; the depot is shared and guarded by one mutex, taken once per batch.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include "bb_config.h"
#include "bb_key.h"
#include "bb_mem.h"
#include "bb_runtime.h"
#include "bb_sanitizer.h"
#include "bb_switch.h"

typedef struct {
    bb_free_item *head;
    uint32_t count;
} free_list;

static struct {
    pthread_mutex_t lock;
    free_list ults;
    free_list descs;
    free_list stacks;
    size_t page_size;
    size_t desc_size;
    bb_desc_chunk *carving; /* the newest chunk; descriptors past `carved` are unused */
    long max_guarded;   /* how many stacks may have a guard page */
    long num_guarded;   /* atomic */
    void **slabs;       /* large-page stack slabs, see "stack slabs" */
    size_t num_slabs, slabs_cap;
    char *carve_next, *carve_end; /* the rest of the newest slab */
    free_list slab_free;          /* slab stacks nobody caches */
} depot = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* ---- intrusive LIFO helpers --------------------------------------------- */

/* Counts change by bb_owned_add, whose store readers see whole: the depot's
 * are peeked at without its lock (see refill). */
static inline void list_push(bb_free_item **head, uint32_t *count, bb_free_item *item)
{
    item->next = *head;
    *head = item;
    bb_owned_add(count, 1);
}

static inline bb_free_item *list_pop(bb_free_item **head, uint32_t *count)
{
    bb_free_item *item = *head;
    if (item) {
        *head = item->next;
        bb_owned_add(count, -1);
    }
    return item;
}

/* Move up to n items from one list to another. */
static void list_move(bb_free_item **from, uint32_t *from_count, bb_free_item **to,
                      uint32_t *to_count, uint32_t n)
{
    while (n-- > 0 && *from)
        list_push(to, to_count, list_pop(from, from_count));
}

/* ---- system memory ------------------------------------------------------ */

static long read_max_map_count(void)
{
    long value = 65530; /* the kernel's default */
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%ld", &value) != 1)
            value = 65530;
        fclose(f);
    }
    return value;
}

static size_t round_to_page(size_t size)
{
    return (size + depot.page_size - 1) & ~(depot.page_size - 1);
}

static bool reserve_guard(void)
{
    if (bb_rt.config.stack_guard == BB_STACK_GUARD_NONE)
        return false;
    if (bb_fetch_add_relaxed(&depot.num_guarded, 1) < depot.max_guarded)
        return true;
    bb_fetch_add_relaxed(&depot.num_guarded, -1);
    return false;
}

/* ---- stack slabs ----------------------------------------------------------
 * Stacks without a guard page (ABT_STACK_OVERFLOW_CHECK=none, or past the
 * budget of guard pages) can share large pages: default-size stacks are
 * carved from large-page slabs and never unmapped one by one (a huge page
 * cannot be split); a freed one goes back to `slab_free` for the next carve.
 * Slabs live until ABT_finalize. */

static bool fits_slab(size_t size)
{
    return bb_large_pages_on() && size == bb_rt.config.thread_stacksize && size <= BB_LARGE_PAGE;
}

/* Under the depot's lock. */
static bool add_slab(void)
{
    if (depot.num_slabs == depot.slabs_cap) {
        size_t cap = depot.slabs_cap ? 2 * depot.slabs_cap : 16;
        void **grown = realloc(depot.slabs, cap * sizeof(*grown));
        if (!grown)
            return false;
        depot.slabs = grown;
        depot.slabs_cap = cap;
    }
    char *slab = bb_large_map(BB_LARGE_PAGE);
    if (!slab)
        return false;
    depot.slabs[depot.num_slabs++] = slab;
    depot.carve_next = slab;
    depot.carve_end = slab + BB_LARGE_PAGE;
    return true;
}

static int carve_slab_stack(size_t size, void **stack, uint32_t *flags)
{
    void *s = NULL;
    pthread_mutex_lock(&depot.lock);
    bb_free_item *link = list_pop(&depot.slab_free.head, &depot.slab_free.count);
    if (link) {
        s = bb_mem_item_stack(link, size); /* linked through its top */
    } else if (depot.carve_end - depot.carve_next >= (ptrdiff_t)size || add_slab()) {
        s = depot.carve_next;
        depot.carve_next += size;
    }
    pthread_mutex_unlock(&depot.lock);
    if (!s)
        return ABT_ERR_MEM;
    *stack = s;
    *flags = BB_UNIT_SLAB_STACK;
    return ABT_SUCCESS;
}

/* Only default-size stacks come from slabs (fits_slab). */
static void return_slab_stack(void *stack, size_t size)
{
    /* AddressSanitizer may still mark the frames its ULT left there. */
    bb_sanitizer_fresh_stack(bb_mem_stack_item(stack, size), sizeof(bb_free_item));
    pthread_mutex_lock(&depot.lock);
    list_push(&depot.slab_free.head, &depot.slab_free.count, bb_mem_stack_item(stack, size));
    pthread_mutex_unlock(&depot.lock);
}

static void unmap_slabs(void)
{
    for (size_t i = 0; i < depot.num_slabs; i++)
        bb_large_unmap(depot.slabs[i], BB_LARGE_PAGE);
    free(depot.slabs);
    depot.slabs = NULL;
    depot.num_slabs = depot.slabs_cap = 0;
    depot.carve_next = depot.carve_end = NULL;
    depot.slab_free = (free_list){0};
}

static char *map_pages(size_t len)
{
    char *map = mmap(NULL, len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    return map == MAP_FAILED ? NULL : map;
}

/* Unmapping part of a mapping the kernel merged with its neighbours splits
 * it, which fails at vm.max_map_count: then the memory at least goes back
 * (the address range stays reserved). */
static void unmap_pages(void *start, size_t len)
{
    if (munmap(start, len) != 0)
        (void)madvise(start, len, MADV_DONTNEED);
}

/* A stack with a guard page below it (BB_UNIT_GUARDED_STACK in *flags), or
 * without one. The guard's mprotect makes a mapping of its own, which fails
 * at vm.max_map_count; the new pages then joined a neighbouring mapping
 * (else the mmap had failed too), at its lower end, where mmap places
 * them, so that the page meant for the guard can leave it without a split:
 * the stack goes without. */
static int map_stack_trying_guard(size_t size, void **stack, uint32_t *flags)
{
    size_t guard = depot.page_size, len = round_to_page(size) + guard;
    char *map = map_pages(len);
    if (!map)
        return ABT_ERR_MEM;
    *stack = map + guard;
    if (mprotect(map, guard, PROT_NONE) == 0) {
        *flags = BB_UNIT_GUARDED_STACK;
        return ABT_SUCCESS;
    }
    *flags = 0;
    if (munmap(map, guard) == 0)
        return ABT_SUCCESS;
    unmap_pages(map, len);
    return ABT_ERR_MEM;
}

static int map_unguarded_stack(size_t size, void **stack, uint32_t *flags)
{
    if (fits_slab(size))
        return carve_slab_stack(size, stack, flags);
    size_t len = round_to_page(size);
    char *map = map_pages(len);
    if (!map)
        return ABT_ERR_MEM;
    /* With no guard page between them the kernel merges neighbouring
     * stacks into one mapping, which THP set to "always" would back with
     * huge pages: RSS for all of them where each touches a few pages.
     * (Linux 6.7 and later do this for MAP_STACK themselves; Debian 12's
     * 6.1 does not.) */
    (void)madvise(map, len, MADV_NOHUGEPAGE);
    *stack = map;
    *flags = 0;
    return ABT_SUCCESS;
}

/* A guard page while the budget lasts (ABT_STACK_OVERFLOW_CHECK=mprotect);
 * a stack that could not get one goes without, unless every stack must
 * have one (mprotect_strict). */
static int map_stack(size_t size, void **stack, uint32_t *flags)
{
    if (size > SIZE_MAX - 2 * depot.page_size)
        return ABT_ERR_MEM; /* rounded up and guarded, its length would wrap */
    bool strict = bb_rt.config.stack_guard == BB_STACK_GUARD_STRICT;
    if (!reserve_guard())
        return strict ? ABT_ERR_MEM : map_unguarded_stack(size, stack, flags);
    int err = map_stack_trying_guard(size, stack, flags);
    if (err == ABT_SUCCESS && (*flags & BB_UNIT_GUARDED_STACK))
        return ABT_SUCCESS;
    bb_fetch_add_relaxed(&depot.num_guarded, -1); /* out of mappings, most likely */
    if (err == ABT_SUCCESS && !strict)
        return ABT_SUCCESS;
    if (err == ABT_SUCCESS)
        unmap_pages(*stack, round_to_page(size)); /* strict: no stack without its guard */
    return strict ? ABT_ERR_MEM : map_unguarded_stack(size, stack, flags);
}

static void unmap_stack(void *stack, size_t size, uint32_t flags)
{
    if (flags & BB_UNIT_SLAB_STACK) {
        return_slab_stack(stack, size);
        return;
    }
    size_t guard = (flags & BB_UNIT_GUARDED_STACK) ? depot.page_size : 0;
    unmap_pages((char *)stack - guard, round_to_page(size) + guard);
    if (guard)
        bb_fetch_add_relaxed(&depot.num_guarded, -1);
}

static void unmap_cached_stack(bb_free_item *item)
{
    size_t size = bb_rt.config.thread_stacksize;
    unmap_stack(bb_mem_item_stack(item, size), size, item->flags);
}

/* ---- the depot ----------------------------------------------------------- */

/* Move `n` items of a cache into the depot. The depot has no bound: what
 * it holds was in use at once before (guarded stacks are bounded by the
 * guard budget, slab stacks live in their slabs anyway), and a creator that
 * refills from it never maps afresh what another ES just freed. */
static void move_to_depot(bb_free_item **head, uint32_t *count, uint32_t n, free_list *to)
{
    pthread_mutex_lock(&depot.lock);
    list_move(head, count, &to->head, &to->count, n);
    pthread_mutex_unlock(&depot.lock);
}

/* Take half of a full cache into the depot. */
static void spill(bb_free_item **head, uint32_t *count, free_list *to)
{
    move_to_depot(head, count, *count / 2, to);
}

static void push_to_depot(free_list *to, bb_free_item *item)
{
    pthread_mutex_lock(&depot.lock);
    list_push(&to->head, &to->count, item);
    pthread_mutex_unlock(&depot.lock);
}

/* A batch from the depot into an empty cache list. The batch grows with
 * each refill (`*batch`, from BB_REFILL_FIRST up to half the bound): an ES
 * that keeps coming back takes one lock per many items, and one that needs
 * a few (a scheduler's stack, say) does not take what others will need. */
static void refill(bb_free_item **head, uint32_t *count, free_list *from, uint32_t limit,
                   uint32_t *batch)
{
    if (!bb_load_relaxed(&from->count))
        return; /* racy peek: a miss only costs a fresh allocation */
    uint32_t most = limit / 2 ? limit / 2 : 1;
    uint32_t n = *batch < BB_REFILL_FIRST ? BB_REFILL_FIRST : *batch;
    if (n > most)
        n = most;
    *batch = n <= most / 2 ? 2 * n : most;
    pthread_mutex_lock(&depot.lock);
    list_move(&from->head, &from->count, head, count, n);
    pthread_mutex_unlock(&depot.lock);
}

/* A descriptor nobody caches any more goes back to the depot for good: its
 * memory belongs to a chunk, which lives until ABT_finalize. */
static void free_desc_item(bb_free_item *item)
{
    pthread_mutex_lock(&depot.lock);
    list_push(&depot.descs.head, &depot.descs.count, item);
    pthread_mutex_unlock(&depot.lock);
}

/* ---- descriptors --------------------------------------------------------- */

void *bb_mem_alloc_aligned(size_t size)
{
    void *p;
    return posix_memalign(&p, BB_CACHE_LINE, size) == 0 ? p : NULL;
}

void *bb_mem_calloc_lines(size_t size)
{
    size_t rounded = (size + BB_CACHE_LINE - 1) & ~(size_t)(BB_CACHE_LINE - 1);
    void *p = bb_mem_alloc_aligned(rounded);
    if (p)
        memset(p, 0, rounded);
    return p;
}

/* ---- descriptor chunks ----------------------------------------------------
 * Descriptors are carved from chunks (a 2 MiB region each, or, with
 * ABT_MEM_LP_ALLOC=malloc or no region to be had, BB_DESC_CHUNK_UNITS from
 * malloc), never returned one by one to the system allocator. The chunks form one list that a
 * debugger walks to find every unit, live or free (scripts/bobbin-gdb.py):
 * a free descriptor is marked BB_UNIT_STATE_FREE, a carved one was used at
 * least once, and nothing past `carved` is a descriptor yet. */
bb_desc_chunk *bb_desc_chunks;

/* With large pages, a chunk fills one large-page region (thousands of
 * descriptors); without, it is a small block from malloc. */
static bb_desc_chunk *new_chunk(void)
{
    bb_desc_chunk *c = NULL;
    if (bb_large_pages_on() && (c = bb_large_map(BB_LARGE_PAGE)) != NULL) {
        c->mapped = BB_LARGE_PAGE;
        c->capacity = (uint32_t)((BB_LARGE_PAGE - sizeof(*c)) / depot.desc_size);
    } else {
        c = bb_mem_alloc_aligned(sizeof(*c) + BB_DESC_CHUNK_UNITS * depot.desc_size);
        if (!c)
            return NULL;
        c->mapped = 0;
        c->capacity = BB_DESC_CHUNK_UNITS;
    }
    c->carved = 0;
    c->desc_size = (uint32_t)depot.desc_size;
    c->next = bb_desc_chunks;
    bb_store_release(&bb_desc_chunks, c);
    return c;
}

static bb_unit *new_desc(void)
{
    bb_unit *u = NULL;
    pthread_mutex_lock(&depot.lock);
    bb_desc_chunk *c = depot.carving;
    if (!c || c->carved == c->capacity)
        c = depot.carving = new_chunk();
    if (c) {
        u = (bb_unit *)(void *)(c->units + (size_t)c->carved * c->desc_size);
        u->fiber = (union bb_unit_fiber){0}; /* and so they stay while no unit uses it */
        u->lent_stack = 0;
        bb_unit_clear_cold(u);
        bb_unit_make_free(u);
        bb_store_release(&c->carved, c->carved + 1);
    }
    pthread_mutex_unlock(&depot.lock);
    return u;
}

static void free_chunks(void)
{
    while (bb_desc_chunks) {
        bb_desc_chunk *c = bb_desc_chunks;
        bb_desc_chunks = c->next;
        if (c->mapped)
            bb_large_unmap(c, c->mapped);
        else
            free(c);
    }
    depot.carving = NULL;
}

void bb_mem_cache_init(bb_mem_cache *cache)
{
    *cache = (bb_mem_cache){0};
    cache->max_ults = bb_rt.config.mem_max_stacks;
    cache->max_descs = bb_rt.config.mem_max_descs;
    cache->stack_size = bb_rt.config.thread_stacksize;
}

/* Memory that ULTs freed with their stack (eager ones, those of external
 * threads) left in the depot is taken apart when a bare descriptor or a
 * stack is wanted and none is free: otherwise it would stay there while
 * lazy ULTs and tasklets map more, up to twice the peak. The other half
 * goes back to the depot. */
static bb_unit *pop_depot_ult(void)
{
    if (!bb_load_relaxed(&depot.ults.count))
        return NULL; /* racy peek, as in refill */
    pthread_mutex_lock(&depot.lock);
    bb_unit *u = (bb_unit *)list_pop(&depot.ults.head, &depot.ults.count);
    pthread_mutex_unlock(&depot.lock);
    return u;
}

static bb_unit *desc_from_depot_ult(void)
{
    bb_unit *u = pop_depot_ult();
    if (u) {
        bb_free_item *link = bb_mem_stack_item(u->stack, u->stacksize);
        bb_sanitizer_fresh_stack(link, sizeof(*link));
        link->flags = u->flags & BB_UNIT_STACK_FLAGS;
        push_to_depot(&depot.stacks, link);
    }
    return u;
}

static void *stack_from_depot_ult(uint32_t *flags)
{
    bb_unit *u = pop_depot_ult();
    if (!u)
        return NULL;
    void *stack = u->stack;
    *flags = u->flags & BB_UNIT_STACK_FLAGS;
    free_desc_item((bb_free_item *)u);
    return stack;
}

bb_unit *bb_mem_desc_alloc_slow(bb_mem_cache *cache)
{
    bb_free_item *item;
    if (cache) {
        refill(&cache->descs, &cache->num_descs, &depot.descs, bb_rt.config.mem_max_descs,
               &cache->batch.descs);
        item = list_pop(&cache->descs, &cache->num_descs);
    } else {
        pthread_mutex_lock(&depot.lock);
        item = list_pop(&depot.descs.head, &depot.descs.count);
        pthread_mutex_unlock(&depot.lock);
    }
    if (!item)
        item = (bb_free_item *)desc_from_depot_ult();
    return item ? (bb_unit *)item : new_desc();
}

void bb_mem_desc_free_slow(bb_mem_cache *cache, bb_unit *u)
{
    bb_free_item *item = (bb_free_item *)u;
    if (cache) {
        list_push(&cache->descs, &cache->num_descs, item);
        spill(&cache->descs, &cache->num_descs, &depot.descs);
        return;
    }
    free_desc_item(item);
}

/* ---- stacks of other sizes ------------------------------------------------
 * A ULT given a stack size of its own (ABT_thread_attr_set_stacksize), or a
 * scheduler with a stack, needs a stack the caches above do not hold.
 * Mapping one for each such ULT and unmapping it at its free costs system
 * calls on both sides (three with a guard page), and the first touch of
 * each fresh page a fault: tens of microseconds per ULT where a cached stack
 * costs a pop. So each ES also keeps free stacks of up to
 * BB_OTHER_STACK_SIZES other sizes, a list per size, bounded like the
 * default-size one and by BB_OTHER_STACKS_BYTES. A size takes the slot of
 * a size with no free stack left; with none, its stack is unmapped as
 * before. There is no depot for them: a stack freed on another ES stays in
 * that ES's list, where ULTs created there find it. */

static uint32_t other_stacks_max(size_t size)
{
    size_t by_bytes = BB_OTHER_STACKS_BYTES / size;
    uint32_t by_count = bb_rt.config.mem_max_stacks;
    return by_bytes < by_count ? (uint32_t)by_bytes : by_count;
}

/* The list of `cache` for `size`; with `claim`, a free slot becomes it. */
static bb_mem_other_stacks *other_stacks(bb_mem_cache *cache, size_t size, bool claim)
{
    bb_mem_other_stacks *spare = NULL;
    for (int i = 0; i < BB_OTHER_STACK_SIZES; i++) {
        bb_mem_other_stacks *l = &cache->other[i];
        if (l->size == size)
            return l;
        if (!spare && l->count == 0)
            spare = l;
    }
    if (!claim || !spare)
        return NULL;
    spare->size = size;
    spare->max = other_stacks_max(size);
    return spare;
}

static void *other_stack_pop(bb_mem_cache *cache, size_t size, uint32_t *flags)
{
    bb_mem_other_stacks *l = cache ? other_stacks(cache, size, false) : NULL;
    if (!l || !l->head)
        return NULL;
    bb_free_item *item = list_pop(&l->head, &l->count);
    *flags = item->flags;
    return bb_mem_item_stack(item, size);
}

/* Returns false, keeping nothing, if the stack has no room in `cache`. */
static bool other_stack_push(bb_mem_cache *cache, void *stack, size_t size, uint32_t flags)
{
    bb_mem_other_stacks *l = cache ? other_stacks(cache, size, true) : NULL;
    if (!l || l->count >= l->max)
        return false;
    bb_free_item *item = bb_mem_stack_item(stack, size);
    /* As for a default-size stack: the ULT's frames may still be poisoned. */
    bb_sanitizer_fresh_stack(item, sizeof(*item));
    item->flags = flags & (BB_UNIT_GUARDED_STACK | BB_UNIT_SLAB_STACK);
    list_push(&l->head, &l->count, item);
    return true;
}

static void flush_other_stacks(bb_mem_cache *cache)
{
    for (int i = 0; i < BB_OTHER_STACK_SIZES; i++) {
        bb_mem_other_stacks *l = &cache->other[i];
        while (l->head) {
            bb_free_item *item = list_pop(&l->head, &l->count);
            unmap_stack(bb_mem_item_stack(item, l->size), l->size, item->flags);
        }
        l->size = 0;
    }
}

/* ---- stacks -------------------------------------------------------------- */

int bb_mem_stack_alloc(bb_mem_cache *cache, size_t size, void **stack, uint32_t *flags)
{
    if (size != bb_rt.config.thread_stacksize) {
        void *cached = other_stack_pop(cache, size, flags);
        if (!cached)
            return map_stack(size, stack, flags);
        *stack = cached;
        return ABT_SUCCESS;
    }

    void *cached = NULL;
    if (cache) {
        cached = bb_mem_stack_cache_pop(cache, flags);
        if (!cached) {
            refill(&cache->stacks, &cache->num_stacks, &depot.stacks,
                   bb_rt.config.mem_max_stacks, &cache->batch.stacks);
            cached = bb_mem_stack_cache_pop(cache, flags);
        }
    } else {
        pthread_mutex_lock(&depot.lock);
        bb_free_item *item = list_pop(&depot.stacks.head, &depot.stacks.count);
        pthread_mutex_unlock(&depot.lock);
        if (item)
            *flags = item->flags;
        cached = bb_mem_item_stack(item, size);
    }
    if (!cached)
        cached = stack_from_depot_ult(flags);
    if (cached) {
        *stack = cached;
        return ABT_SUCCESS;
    }
    int err = map_stack(size, stack, flags);
    if (err == ABT_SUCCESS)
        *flags |= BB_UNIT_CACHED_STACK;
    return err;
}

void bb_mem_stack_free(bb_mem_cache *cache, void *stack, size_t size, uint32_t flags)
{
    if (!(flags & BB_UNIT_CACHED_STACK)) { /* not of the default size */
        if (!other_stack_push(cache, stack, size, flags))
            unmap_stack(stack, size, flags);
        return;
    }
    flags &= BB_UNIT_CACHED_STACK | BB_UNIT_GUARDED_STACK | BB_UNIT_SLAB_STACK;
    /* Frames of the ULT that ended with a switch left their redzones
     * poisoned where the link goes (bb_mem_stack_item). */
    bb_sanitizer_fresh_stack(bb_mem_stack_item(stack, size), sizeof(bb_free_item));
    if (!cache) {
        bb_free_item *item = bb_mem_stack_item(stack, size);
        item->flags = flags;
        push_to_depot(&depot.stacks, item);
        return;
    }
    if (!bb_mem_stack_cache_push(cache, stack, flags)) { /* full: half goes to the depot */
        spill(&cache->stacks, &cache->num_stacks, &depot.stacks);
        bb_mem_stack_cache_push(cache, stack, flags);
    }
}

/* ---- descriptors with their stack ------------------------------------------ */

static void release_ult_item(bb_free_item *item)
{
    bb_unit *u = (bb_unit *)item;
    unmap_stack(u->stack, u->stacksize, u->flags);
    free_desc_item(item);
}

/* The free-list link overlays bb_unit.next/prev only: the stack fields stay. */
_Static_assert(sizeof(bb_free_item) <= 2 * sizeof(void *), "free item fits in the links");

bb_unit *bb_mem_ult_alloc_slow(bb_mem_cache *cache)
{
    bb_free_item *item = NULL;
    uint32_t limit = bb_rt.config.mem_max_stacks;
    if (cache) {
        refill(&cache->ults, &cache->num_ults, &depot.ults, limit, &cache->batch.ults);
        item = list_pop(&cache->ults, &cache->num_ults);
    } else {
        pthread_mutex_lock(&depot.lock);
        item = list_pop(&depot.ults.head, &depot.ults.count);
        pthread_mutex_unlock(&depot.lock);
    }
    if (item)
        return (bb_unit *)item;

    bb_unit *u = bb_mem_desc_alloc(cache);
    if (!u)
        return NULL;
    uint32_t flags;
    size_t size = bb_rt.config.thread_stacksize;
    if (bb_mem_stack_alloc(cache, size, &u->stack, &flags) != ABT_SUCCESS) {
        bb_mem_desc_free(cache, u);
        return NULL;
    }
    u->stacksize = size;
    u->flags = flags;
    return u;
}

void bb_mem_ult_free_slow(bb_mem_cache *cache, bb_unit *u)
{
    bb_free_item *item = (bb_free_item *)u;
    if (cache) {
        list_push(&cache->ults, &cache->num_ults, item);
        spill(&cache->ults, &cache->num_ults, &depot.ults);
        return;
    }
    push_to_depot(&depot.ults, item);
}

/* ---- set-up and tear-down ------------------------------------------------ */

int bb_mem_init(void)
{
    long max_maps = read_max_map_count();
    depot.page_size = (size_t)sysconf(_SC_PAGESIZE);
    depot.desc_size = (sizeof(bb_unit) + BB_CACHE_LINE - 1) & ~(size_t)(BB_CACHE_LINE - 1);
    /* A guarded stack costs two mappings (guard + stack). */
    depot.max_guarded = max_maps * BB_GUARD_MAP_SHARE_NUM / BB_GUARD_MAP_SHARE_DEN / 2;
    /* valgrind, whatever its tool, tracks every mapping in a fixed table
     * (VG_N_SEGMENTS, tens of thousands): there, guard pages must leave most
     * of it to the other stacks (slabs, with large pages: one entry per 128). */
    if (RUNNING_ON_VALGRIND && depot.max_guarded > BB_VALGRIND_MAX_GUARDED)
        depot.max_guarded = BB_VALGRIND_MAX_GUARDED;
    depot.num_guarded = 0;
    return ABT_SUCCESS;
}

/* An ES about to sleep keeps a few ULTs' memory and lends the rest to the
 * others through the depot. This matters when one ES creates ULTs and
 * another frees them: without it, the creator would map fresh stacks while
 * the other ES hoards the free ones. */
void bb_mem_cache_lend(bb_mem_cache *cache)
{
    if (cache->num_ults > BB_IDLE_CACHE_KEEP)
        move_to_depot(&cache->ults, &cache->num_ults, cache->num_ults - BB_IDLE_CACHE_KEEP,
                      &depot.ults);
}

void bb_mem_cache_flush(bb_mem_cache *cache)
{
    while (cache->ults)
        release_ult_item(list_pop(&cache->ults, &cache->num_ults));
    while (cache->descs)
        free_desc_item(list_pop(&cache->descs, &cache->num_descs));
    while (cache->stacks)
        unmap_cached_stack(list_pop(&cache->stacks, &cache->num_stacks));
    flush_other_stacks(cache);
}

void bb_mem_for_each_unit(void (*visit)(bb_unit *u))
{
    for (bb_desc_chunk *c = bb_desc_chunks; c; c = c->next) {
        for (uint32_t i = 0; i < c->carved; i++) {
            bb_unit *u = (bb_unit *)(void *)(c->units + (size_t)i * c->desc_size);
            if (u->state != BB_UNIT_STATE_FREE)
                visit(u);
        }
    }
}

/* Units the program never freed (left in a pool that no scheduler ran or
 * that a cancelled ES left behind, terminated and never freed) die with the
 * chunks of their descriptors. What they hold apart from those goes with
 * them: a stack mapped on its own (eager, of another size, or lent to a
 * lazy ULT), their key tables (without destructors), their migration
 * callbacks, and what ThreadSanitizer or valgrind keeps for their stacks.
 * Without this, every init/finalize cycle that left such units kept their
 * mappings for good, until the process ran out of them. Slab stacks go with
 * their slabs, and a user's stack stays the user's. */
static void release_abandoned_unit(bb_unit *u)
{
    bb_unit_drop_keys(u);
    if (u->migrate_cb)
        bb_unit_free_migrate_cb(u);
    if (__builtin_expect(bb_fiber_tools.any, 0))
        bb_fibers_release(u); /* what ThreadSanitizer or valgrind keeps for it */
    uint32_t flags = u->lent_stack ? u->lent_stack : u->flags;
    if (u->stack && !(flags & (BB_UNIT_USER_STACK | BB_UNIT_SLAB_STACK)))
        unmap_stack(u->stack, u->stacksize, flags);
}

void bb_mem_fini(void)
{
    bb_mem_for_each_unit(release_abandoned_unit);
    while (depot.ults.head) {
        bb_unit *u = (bb_unit *)list_pop(&depot.ults.head, &depot.ults.count);
        unmap_stack(u->stack, u->stacksize, u->flags);
    }
    while (depot.stacks.head)
        unmap_cached_stack(list_pop(&depot.stacks.head, &depot.stacks.count));
    depot.descs = (free_list){0};
    free_chunks(); /* every descriptor, cached or not */
    unmap_slabs(); /* every slab stack, cached or not */
    bb_large_pages_reset();
}
