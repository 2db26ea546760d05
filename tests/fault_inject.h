/*
 * Allocation-failure injection for the fault tests (issue #5), header-only:
 * include it in exactly one translation unit of a test executable.
 *
 * The executable defines malloc, calloc, realloc, free, posix_memalign,
 * aligned_alloc, memalign, valloc, mmap, mmap64, munmap and pthread_create.
 * The dynamic linker searches the executable first, so these definitions also
 * serve the calls made from libabt.so (and from libc itself, e.g. fopen's
 * buffer). The real functions are found with dlsym(RTLD_NEXT, ...): under
 * AddressSanitizer that is libasan's allocator (libasan comes right after the
 * executable in the lookup order), so ASan/LSan keep tracking every block.
 * dlsym may itself allocate while it resolves: those requests are served from
 * a small static buffer, which free() recognises and ignores.
 *
 *   fi_arm(k, persistent)  from now on, on THIS thread only, count the calls of
 *                          the functions above (except free/munmap) and fail the
 *                          k-th one (persistent: the k-th and every later one)
 *   fi_disarm()            stop counting; returns how many calls were failed
 *   fi_calls()             the calls counted since the last fi_arm
 *
 * Only the arming thread counts, so the test's other threads (ESs, the
 * runtime's helper threads) never see an injected failure and the k-th call
 * is the same call in every run. A failed malloc-family call returns NULL
 * (ENOMEM), posix_memalign returns ENOMEM, mmap returns MAP_FAILED (ENOMEM),
 * pthread_create returns EAGAIN.
 *
 * Two bookkeeping aids that also work without a sanitizer:
 *   - the mapping ledger records every mmap made through the interposed
 *     symbol (any thread) until it is munmapped: fi_live_mappings() after
 *     ABT_finalize must be 0 (LeakSanitizer does not see leaked mappings);
 *   - blocks allocated while armed are remembered until freed:
 *     fi_armed_live() after a failed call tells how many of the blocks it
 *     allocated it kept (a leak, unless the runtime keeps them on purpose,
 *     e.g. a grown table).
 *
 * Not under ThreadSanitizer or MemorySanitizer: each brings its own
 * allocator and interceptors and initializes from the dynamic loader, before
 * main and before any constructor; an interposed (and instrumented) malloc
 * called from there crashes. An executable instrumented by either therefore
 * does not define the interposers at all (compile-time check), and
 * fi_begin() also looks for the TSan runtime at run time (a weak reference
 * to __tsan_init: the runtime is loaded although this file was not
 * instrumented); either way the test prints SKIP and exits with
 * FI_SKIP_CODE, which tests/CMakeLists.txt declares as the SKIP_RETURN_CODE
 * of the fault tests.
 */
#ifndef FAULT_INJECT_H
#define FAULT_INJECT_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

#define FI_SKIP_CODE 77

#if defined(__SANITIZE_THREAD__)
#define FI_NO_INTERPOSERS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define FI_NO_INTERPOSERS 1
#endif
#endif
#ifndef FI_NO_INTERPOSERS
#define FI_NO_INTERPOSERS 0
#endif
#if FI_NO_INTERPOSERS
/* The helpers below serve only the interposers, which are left out. */
#pragma GCC diagnostic ignored "-Wunused-function"
#endif

/* Defined only when the TSan runtime is loaded. */
extern void __tsan_init(void) __attribute__((weak));

/* ---- state ---------------------------------------------------------------- */

static __thread int fi_t_armed;
static __thread int fi_t_persistent;
static __thread long fi_t_calls;
static __thread long fi_t_target;
static __thread long fi_t_fired;

static void *(*fi_real_malloc)(size_t);
static void *(*fi_real_calloc)(size_t, size_t);
static void *(*fi_real_realloc)(void *, size_t);
static void (*fi_real_free)(void *);
static int (*fi_real_posix_memalign)(void **, size_t, size_t);
static void *(*fi_real_aligned_alloc)(size_t, size_t);
static void *(*fi_real_memalign)(size_t, size_t);
static void *(*fi_real_valloc)(size_t);
static void *(*fi_real_mmap)(void *, size_t, int, int, int, off_t);
static int (*fi_real_munmap)(void *, size_t);
static int (*fi_real_pthread_create)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                     void *);

/* Bootstrap buffer for dlsym's own allocations. */
static _Alignas(64) char fi_boot[16384];
static size_t fi_boot_used;
static int fi_resolving;
static int fi_resolved;

static int fi_in_boot(const void *p)
{
    return (const char *)p >= fi_boot && (const char *)p < fi_boot + sizeof(fi_boot);
}

static void *fi_boot_alloc(size_t size, size_t align)
{
    if (align < 16)
        align = 16;
    size_t start = (fi_boot_used + align - 1) & ~(align - 1);
    if (size > sizeof(fi_boot) || start > sizeof(fi_boot) - size)
        return NULL;
    fi_boot_used = start + size;
    memset(fi_boot + start, 0, size);
    return fi_boot + start;
}

static void fi_resolve(void)
{
    if (__atomic_load_n(&fi_resolved, __ATOMIC_ACQUIRE))
        return;
    fi_resolving = 1;
    fi_real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    fi_real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    fi_real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    fi_real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    fi_real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    fi_real_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
    fi_real_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
    fi_real_valloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "valloc");
    fi_real_mmap = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    fi_real_munmap = (int (*)(void *, size_t))dlsym(RTLD_NEXT, "munmap");
    fi_real_pthread_create =
        (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(
            RTLD_NEXT, "pthread_create");
    fi_resolving = 0;
    __atomic_store_n(&fi_resolved, 1, __ATOMIC_RELEASE);
}

#if !FI_NO_INTERPOSERS
__attribute__((constructor(101))) static void fi_ctor(void)
{
    fi_resolve();
}
#endif

/* ---- a tiny spinlock (no allocation, usable inside malloc) ------------------ */

static int fi_lock_word;
static void fi_lock(void)
{
    while (__atomic_exchange_n(&fi_lock_word, 1, __ATOMIC_ACQUIRE))
        while (__atomic_load_n(&fi_lock_word, __ATOMIC_RELAXED))
            __builtin_ia32_pause();
}
static void fi_unlock(void)
{
    __atomic_store_n(&fi_lock_word, 0, __ATOMIC_RELEASE);
}

/* ---- blocks allocated while armed ----------------------------------------- */

#define FI_TRACK_MAX 1024
static void *fi_track[FI_TRACK_MAX];
static int fi_track_n;         /* slots in use (some may be NULL holes) */
static int fi_track_overflow;

static void fi_track_add(void *p)
{
    if (!p)
        return;
    fi_lock();
    if (fi_track_n < FI_TRACK_MAX)
        fi_track[fi_track_n++] = p;
    else
        fi_track_overflow = 1;
    fi_unlock();
}

static void fi_track_del(void *p)
{
    if (!p || !__atomic_load_n(&fi_track_n, __ATOMIC_RELAXED))
        return;
    fi_lock();
    for (int i = 0; i < fi_track_n; i++)
        if (fi_track[i] == p) {
            fi_track[i] = fi_track[--fi_track_n];
            break;
        }
    fi_unlock();
}

/* Blocks allocated while armed (since the last fi_arm) and not yet freed. */
static inline int fi_armed_live(void)
{
    fi_lock();
    int n = fi_track_n;
    fi_unlock();
    return n;
}

/* ---- the mapping ledger ---------------------------------------------------- */

#define FI_MAP_MAX 16384
static struct {
    char *addr;
    size_t len;
} fi_maps[FI_MAP_MAX];
static int fi_maps_n;
static int fi_maps_overflow;

static void fi_map_add(void *addr, size_t len)
{
    fi_lock();
    if (fi_maps_n < FI_MAP_MAX) {
        fi_maps[fi_maps_n].addr = addr;
        fi_maps[fi_maps_n].len = len;
        fi_maps_n++;
    } else {
        fi_maps_overflow = 1;
    }
    fi_unlock();
}

/* munmap may cover a whole recorded mapping or a part of one. */
static void fi_map_del(void *addr, size_t len)
{
    char *lo = addr, *hi = (char *)addr + len;
    fi_lock();
    for (int i = 0; i < fi_maps_n; i++) {
        char *mlo = fi_maps[i].addr, *mhi = mlo + fi_maps[i].len;
        if (hi <= mlo || lo >= mhi)
            continue;
        if (lo <= mlo && hi >= mhi) {
            fi_maps[i--] = fi_maps[--fi_maps_n];
        } else if (lo <= mlo) {
            fi_maps[i].addr = hi;
            fi_maps[i].len = (size_t)(mhi - hi);
        } else {
            fi_maps[i].len = (size_t)(lo - mlo); /* the tail part (a hole is ignored) */
        }
    }
    fi_unlock();
}

/* Mappings made through mmap() and not yet munmapped (every thread). */
static inline int fi_live_mappings(void)
{
    fi_lock();
    int n = fi_maps_n;
    fi_unlock();
    return n;
}

/* ---- arming ----------------------------------------------------------------- */

static inline void fi_arm(long k, int persistent)
{
    fi_resolve();
    fi_lock();
    fi_track_n = 0;
    fi_track_overflow = 0;
    fi_unlock();
    fi_t_calls = 0;
    fi_t_target = k;
    fi_t_fired = 0;
    fi_t_persistent = persistent;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    fi_t_armed = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline long fi_disarm(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    fi_t_armed = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return fi_t_fired;
}

static inline long fi_calls(void)
{
    return fi_t_calls;
}

/* Counts one call; nonzero when this call must fail. */
static int fi_hit(void)
{
    if (!fi_t_armed)
        return 0;
    long n = ++fi_t_calls;
    if (n == fi_t_target || (fi_t_persistent && n > fi_t_target)) {
        fi_t_fired++;
        return 1;
    }
    return 0;
}

/* ---- the interposed functions ---------------------------------------------- */

#if !FI_NO_INTERPOSERS

void *malloc(size_t size)
{
    if (fi_resolving)
        return fi_boot_alloc(size, 16);
    fi_resolve();
    if (fi_hit()) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = fi_real_malloc(size);
    if (fi_t_armed)
        fi_track_add(p);
    return p;
}

void *calloc(size_t n, size_t size)
{
    if (fi_resolving)
        return fi_boot_alloc(n * size, 16);
    fi_resolve();
    if (fi_hit()) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = fi_real_calloc(n, size);
    if (fi_t_armed)
        fi_track_add(p);
    return p;
}

void free(void *p)
{
    if (!p || fi_in_boot(p))
        return;
    fi_resolve();
    fi_track_del(p);
    fi_real_free(p);
}

void *realloc(void *p, size_t size)
{
    if (fi_resolving)
        return fi_boot_alloc(size, 16);
    fi_resolve();
    if (p && fi_in_boot(p)) { /* move a bootstrap block to the real heap */
        void *q = fi_real_malloc(size);
        if (q) {
            size_t avail = (size_t)(fi_boot + sizeof(fi_boot) - (char *)p);
            memcpy(q, p, size < avail ? size : avail);
        }
        return q;
    }
    if (fi_hit()) {
        errno = ENOMEM;
        return NULL;
    }
    void *q = fi_real_realloc(p, size);
    if (q || size == 0)
        fi_track_del(p);
    if (fi_t_armed)
        fi_track_add(q);
    return q;
}

int posix_memalign(void **out, size_t align, size_t size)
{
    if (fi_resolving) {
        void *p = fi_boot_alloc(size, align);
        if (!p)
            return ENOMEM;
        *out = p;
        return 0;
    }
    fi_resolve();
    if (fi_hit())
        return ENOMEM;
    int err = fi_real_posix_memalign(out, align, size);
    if (err == 0 && fi_t_armed)
        fi_track_add(*out);
    return err;
}

void *aligned_alloc(size_t align, size_t size)
{
    if (fi_resolving)
        return fi_boot_alloc(size, align);
    fi_resolve();
    if (fi_hit()) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = fi_real_aligned_alloc(align, size);
    if (fi_t_armed)
        fi_track_add(p);
    return p;
}

void *memalign(size_t align, size_t size)
{
    if (fi_resolving)
        return fi_boot_alloc(size, align);
    fi_resolve();
    if (fi_hit()) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = fi_real_memalign(align, size);
    if (fi_t_armed)
        fi_track_add(p);
    return p;
}

void *valloc(size_t size)
{
    if (fi_resolving)
        return fi_boot_alloc(size, 4096);
    fi_resolve();
    if (fi_hit()) {
        errno = ENOMEM;
        return NULL;
    }
    void *p = fi_real_valloc(size);
    if (fi_t_armed)
        fi_track_add(p);
    return p;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    fi_resolve();
    if (fi_hit()) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    void *p = fi_real_mmap(addr, len, prot, flags, fd, off);
    if (p != MAP_FAILED)
        fi_map_add(p, len);
    return p;
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return mmap(addr, len, prot, flags, fd, off);
}

int munmap(void *addr, size_t len)
{
    fi_resolve();
    int err = fi_real_munmap(addr, len);
    if (err == 0)
        fi_map_del(addr, len);
    return err;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*fn)(void *),
                   void *arg)
{
    fi_resolve();
    if (fi_hit())
        return EAGAIN;
    return fi_real_pthread_create(thread, attr, fn, arg);
}
#endif /* !FI_NO_INTERPOSERS */

/* ---- the sweep driver ------------------------------------------------------- */
/*
 * One create path = one fi_case. For k = 1, 2, ...: ABT_init (unless
 * own_init), setup, arm(k), create, disarm, check, use, teardown, ABT_finalize,
 * then the mapping ledger must be empty. The runtime is rebuilt for every k so
 * that the per-ES descriptor and stack caches are cold: every create reaches
 * the system allocator. The loop ends at the first k with no injected failure
 * (every allocation point of the path was failed once). Both the one-shot
 * mode (only the k-th call fails) and the persistent mode (the k-th and all
 * later calls fail: the error path itself gets no memory) are swept.
 */
#include "bb_test.h"

enum fi_out_rule {
    FI_OUT_NULL,           /* *out is set to the NULL handle on error */
    FI_OUT_UNTOUCHED,      /* *out is left alone (or NULL: pre-clearing is harmless) */
    FI_OUT_NONE            /* the call has no output handle */
};

#define FI_SENTINEL ((void *)(uintptr_t)0x5a5a5a5a5a5a5a50ull)

typedef struct fi_case {
    const char *name;
    enum fi_out_rule out_rule;
    int own_init;                 /* the case calls ABT_init/finalize itself */
    void (*setup)(void);          /* after ABT_init, not armed */
    int (*create)(void **out);    /* the call under test */
    void (*destroy)(void **out);  /* frees a successful result (not armed) */
    void (*check_failed)(void);   /* extra checks after a failure (optional) */
    void (*use)(void);            /* a successful create + use + free of the same kind */
    void (*teardown)(void);       /* before ABT_finalize */
} fi_case;

static int fi_verbose;
static long fi_total_points;
static long fi_total_tolerated;

static void fi_sweep_mode(const fi_case *c, int persistent)
{
    long points = 0, tolerated = 0;
    for (long k = 1; k < 100000; k++) {
        int before = bb_test_failures;
        if (!c->own_init)
            CHECK_OK(ABT_init(0, NULL));
        if (c->setup)
            c->setup();
        void *out = FI_SENTINEL;
        fi_arm(k, persistent);
        int rc = c->create(&out);
        long fired = fi_disarm();
        long calls = fi_calls();
        int kept = fi_armed_live();
        if (rc == ABT_SUCCESS) {
            if (fired)
                tolerated++; /* the library recovered from the failure by itself */
            if (c->destroy)
                c->destroy(&out);
        } else {
            if (rc != ABT_ERR_MEM && rc != ABT_ERR_SYS)
                BB_FAIL_AT("%s k=%ld%s: returned %d, expected ABT_ERR_MEM or ABT_ERR_SYS",
                           c->name, k, persistent ? " (persistent)" : "", rc);
            if (!fired)
                BB_FAIL_AT("%s k=%ld: failed with %d without an injected failure", c->name, k,
                           rc);
            if (c->out_rule == FI_OUT_NULL && out != NULL)
                BB_FAIL_AT("%s k=%ld%s: *out = %p on error, expected NULL", c->name, k,
                           persistent ? " (persistent)" : "", out);
            if (c->out_rule == FI_OUT_UNTOUCHED && out != NULL && out != FI_SENTINEL)
                BB_FAIL_AT("%s k=%ld%s: *out = %p on error, expected untouched or NULL",
                           c->name, k, persistent ? " (persistent)" : "", out);
            if (kept && fi_verbose)
                fprintf(stderr,
                        "note: %s k=%ld%s: %d block(s) allocated by the failed call are "
                        "still live\n",
                        c->name, k, persistent ? " (persistent)" : "", kept);
            if (c->check_failed)
                c->check_failed();
        }
        if (fi_verbose)
            fprintf(stderr, "%s k=%ld%s: rc=%d fired=%ld calls=%ld\n", c->name, k,
                    persistent ? " (persistent)" : "", rc, fired, calls);
        if (c->use)
            c->use();
        if (c->teardown)
            c->teardown();
        if (!c->own_init)
            CHECK_OK(ABT_finalize());
        int maps = fi_live_mappings();
        if (maps)
            BB_FAIL_AT("%s k=%ld%s: %d mapping(s) still live after ABT_finalize", c->name, k,
                       persistent ? " (persistent)" : "", maps);
        if (bb_test_failures != before && !fi_verbose)
            fprintf(stderr, "  (%s k=%ld%s: rc=%d fired=%ld calls=%ld)\n", c->name, k,
                    persistent ? " (persistent)" : "", rc, fired, calls);
        if (!fired) {
            if (rc != ABT_SUCCESS)
                BB_FAIL_AT("%s: returned %d with no injected failure", c->name, rc);
            break;
        }
        points++;
        if (maps) /* do not report the same mappings again */
            break;
    }
    printf("%s%s: %ld failure point(s), %ld absorbed by the library\n", c->name,
           persistent ? " (persistent)" : "", points, tolerated);
    fi_total_points += points;
    fi_total_tolerated += tolerated;
}

static inline void fi_sweep(const fi_case *c)
{
    fi_sweep_mode(c, 0);
    fi_sweep_mode(c, 1);
}

/* ---- "the runtime keeps working": a small workload --------------------------- */

static void fi_workload_body(void *arg)
{
    __atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED);
    ABT_thread_yield();
    __atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED);
}

static void fi_workload_task(void *arg)
{
    __atomic_fetch_add((int *)arg, 10, __ATOMIC_RELAXED);
}

/* A secondary ES, ULTs on both ESs' pools, a tasklet, a mutex; all joined and
 * freed. Must be called from the primary ULT of an initialized runtime. */
static inline void fi_workload(void)
{
    int count = 0;
    ABT_xstream self, es = ABT_XSTREAM_NULL;
    ABT_pool pools[2];
    ABT_thread t[4] = {ABT_THREAD_NULL, ABT_THREAD_NULL, ABT_THREAD_NULL, ABT_THREAD_NULL};
    ABT_task task = ABT_TASK_NULL;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es));
    CHECK_OK(ABT_xstream_get_main_pools(es, 1, &pools[1]));
    for (int i = 0; i < 4; i++)
        CHECK_OK(ABT_thread_create(pools[i & 1], fi_workload_body, &count, ABT_THREAD_ATTR_NULL,
                                   &t[i]));
    CHECK_OK(ABT_task_create(pools[1], fi_workload_task, &count, &task));
    for (int i = 0; i < 4; i++)
        CHECK_OK(ABT_thread_free(&t[i]));
    CHECK_OK(ABT_task_free(&task));
    CHECK_EQ(count, 18);
    CHECK_OK(ABT_xstream_join(es));
    CHECK_OK(ABT_xstream_free(&es));
}

/* The primary ES's first main pool. */
static inline ABT_pool fi_main_pool(void)
{
    ABT_xstream self;
    ABT_pool pool = ABT_POOL_NULL;
    CHECK_OK(ABT_xstream_self(&self));
    CHECK_OK(ABT_xstream_get_main_pools(self, 1, &pool));
    return pool;
}

/* Call first in main: exits with FI_SKIP_CODE under ThreadSanitizer or
 * MemorySanitizer. */
static inline void fi_begin(void)
{
    if (FI_NO_INTERPOSERS || __tsan_init) {
        printf("SKIP: allocation-failure injection does not work under ThreadSanitizer or "
               "MemorySanitizer\n");
        exit(FI_SKIP_CODE);
    }
    fi_resolve();
    fi_verbose = getenv("FI_VERBOSE") != NULL;
    /* Mappings made before main (e.g. by a sanitizer runtime) are not ours. */
    fi_lock();
    fi_maps_n = 0;
    fi_unlock();
}

#endif
