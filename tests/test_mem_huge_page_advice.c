/*
 * Huge pages only where ABT_MEM_LP_ALLOC asks for them, whatever the
 * system's THP setting: where THP is on for every mapping ("always", the
 * default of some distributions) a stack slab of regular pages would get
 * huge pages unless it says no, and 65,536 live ULTs would take 1 GiB of
 * RSS instead of 270 MiB. The kernel shows the advice in /proc/self/smaps
 * (VmFlags: "nh" no huge pages, "hg" huge pages), so this test checks it
 * on any machine: for a ULT's stack carved from a slab (default size, no
 * guard page) of regular pages (mmap_rp) and of transparent huge pages
 * (thp), and for stacks mapped on their own (another size; malloc).
 */
#include <abt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_test.h"

static void note_stack_address(void *arg)
{
    volatile char here = 0;
    *(uintptr_t *)arg = (uintptr_t)&here;
}

/* The VmFlags of the mapping of /proc/self/smaps that holds `addr`, into
 * `flags`; 0 if none does. */
static int vm_flags_of(uintptr_t addr, char *flags, size_t size)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int inside = 0, found = 0;
    CHECK(f != NULL);
    while (!found && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = addr >= lo && addr < hi;
        else if (inside && strncmp(line, "VmFlags:", 8) == 0) {
            snprintf(flags, size, "%s", line + 8);
            found = 1;
        }
    }
    fclose(f);
    return found;
}

static int has_flag(const char *flags, const char *flag)
{
    char padded[8];
    char list[512];
    snprintf(padded, sizeof(padded), " %s ", flag);
    snprintf(list, sizeof(list), " %s", flags);
    list[strcspn(list, "\n")] = ' ';
    return strstr(list, padded) != NULL;
}

/* The advice on the mapping that holds a ULT's stack, for a ULT with a
 * stack of `stacksize` bytes (0: the default) made with
 * ABT_MEM_LP_ALLOC=`mode` and no guard pages: it says `want` and not
 * `not_want`. */
static void check_stack_advice(const char *mode, size_t stacksize, const char *want,
                               const char *not_want)
{
    setenv("ABT_MEM_LP_ALLOC", mode, 1);
    setenv("ABT_STACK_OVERFLOW_CHECK", "none", 1);
    setenv("ABT_THREAD_TECHNIQUE", "full", 1); /* a stack from creation */
    CHECK_OK(ABT_init(0, NULL));
    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    if (stacksize) {
        CHECK_OK(ABT_thread_attr_create(&attr));
        CHECK_OK(ABT_thread_attr_set_stacksize(attr, stacksize));
    }
    uintptr_t addr = 0;
    ABT_thread t;
    CHECK_OK(ABT_thread_create(bb_test_main_pool(), note_stack_address, &addr, attr, &t));
    CHECK_OK(ABT_thread_join(t));
    char flags[512] = "";
    CHECK(addr != 0);
    if (!vm_flags_of(addr, flags, sizeof(flags)))
        BB_FAIL_AT("%s: no mapping in /proc/self/smaps holds the stack", mode);
    printf("%s, stack of %zu bytes: VmFlags:%s", mode, stacksize, flags);
    if (!has_flag(flags, want) || (not_want && has_flag(flags, not_want)))
        BB_FAIL_AT("%s: the stack's mapping should say \"%s\"%s%s", mode, want,
                   not_want ? " and not " : "", not_want ? not_want : "");
    CHECK_OK(ABT_thread_free(&t));
    if (stacksize)
        CHECK_OK(ABT_thread_attr_free(&attr));
    CHECK_OK(ABT_finalize());
}

int main(void)
{
    BB_TEST_BEGIN(60);
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) {
        printf("skipped: no /proc/self/smaps\n");
        return 77;
    }
    fclose(f);
    check_stack_advice("mmap_rp", 0, "nh", "hg");       /* a slab of regular pages */
    check_stack_advice("thp", 0, "hg", "nh");           /* a slab of transparent ones */
    check_stack_advice("mmap_rp", 48 * 1024, "nh", "hg"); /* mapped on its own */
    check_stack_advice("malloc", 0, "nh", "hg");        /* no slabs: on its own */
    BB_TEST_END();
}
