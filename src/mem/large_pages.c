/*
 * 2 MiB regions for the descriptor chunks and stack slabs of mem.c, backed
 * as ABT_MEM_LP_ALLOC asks:
 *
 *   mmap_rp (default)  regular pages, even where THP is on for every mapping
 *   mmap_hp_thp        huge pages the system reserved (MAP_HUGETLB), else
 *                      transparent huge pages
 *   mmap_hp_rp         reserved huge pages, else regular pages
 *   thp                transparent huge pages (madvise; the kernel may still
 *                      give regular pages when it has no huge page free)
 *   malloc             no regions: mem.c keeps small chunks from malloc and
 *                      maps each stack on its own
 *
 * Huge pages are not the default: a huge page is resident as a whole, so
 * stack slabs on huge pages cost a ULT its full 16 KiB of RSS instead of the
 * pages it touches (README, "Performance"). The choice among huge pages is
 * made at run time: a system with none reserved makes the first MAP_HUGETLB
 * fail, and later regions skip it; so does one whose reserve runs out.
 * ABT_info_print_config counts the regions of each kind.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "bb_mem.h"
#include "bb_runtime.h"

static uint32_t hugetlb_failed; /* atomic: MAP_HUGETLB failed once */
static uint32_t num_regions[BB_PAGES_KINDS]; /* atomic: regions mapped, by backing */

/* `len` bytes aligned to BB_LARGE_PAGE, as THP needs: map more, trim.
 * Regular pages are asked for too: where THP is on for every mapping
 * (/sys/kernel/mm/transparent_hugepage/enabled = always, the default of
 * some distributions) an aligned region would otherwise get huge pages,
 * and 65,536 live ULTs 1 GiB of RSS instead of 270 MiB. */
static void *map_aligned(size_t len, bool transparent)
{
    size_t over = len + BB_LARGE_PAGE;
    char *p = mmap(NULL, over, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uintptr_t mask = BB_LARGE_PAGE - 1;
    char *start = (char *)(((uintptr_t)p + mask) & ~mask);
    if (start > p)
        munmap(p, (size_t)(start - p));
    size_t tail = (size_t)(p + over - (start + len));
    if (tail)
        munmap(start + len, tail);
    /* A hint: with THP off, regular pages either way. */
    (void)madvise(start, len, transparent ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    return start;
}

/* Reserved pages of 2 MiB (log2 = 21) whatever the system's default huge
 * page size: a region on a 1 GiB page would waste the rest of it, and its
 * unmap, 2 MiB long, would fail. A system without 2 MiB pages refuses. */
#define MAP_HUGE_2MIB (21 << MAP_HUGE_SHIFT)

static void *map_hugetlb(size_t len)
{
    if (bb_load_relaxed(&hugetlb_failed))
        return NULL;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MIB, -1, 0);
    if (p != MAP_FAILED)
        return p;
    bb_store_relaxed(&hugetlb_failed, 1u);
    return NULL;
}

bool bb_large_pages_on(void)
{
    return bb_rt.config.large_pages != BB_LP_NONE;
}

void *bb_large_map(size_t len)
{
    int mode = bb_rt.config.large_pages;
    if (mode == BB_LP_HUGETLB_OR_THP || mode == BB_LP_HUGETLB_OR_REGULAR) {
        void *p = map_hugetlb(len);
        if (p) {
            bb_fetch_add_relaxed(&num_regions[BB_PAGES_HUGETLB], 1);
            return p;
        }
    }
    bool transparent = mode == BB_LP_HUGETLB_OR_THP || mode == BB_LP_THP;
    void *p = map_aligned(len, transparent);
    if (p)
        bb_fetch_add_relaxed(&num_regions[transparent ? BB_PAGES_THP : BB_PAGES_REGULAR], 1);
    return p;
}

void bb_large_unmap(void *p, size_t len)
{
    munmap(p, len);
}

unsigned bb_large_regions(int kind)
{
    return bb_load_relaxed(&num_regions[kind]);
}

/* ABT_finalize: a new ABT_init may run on a system that changed. */
void bb_large_pages_reset(void)
{
    bb_store_relaxed(&hugetlb_failed, 0u);
    for (int k = 0; k < BB_PAGES_KINDS; k++)
        bb_store_relaxed(&num_regions[k], 0u);
}
