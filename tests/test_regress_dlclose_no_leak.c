/* Regression: a program that loads libabt with dlopen, runs it and unloads
 * it with dlclose, again and again, must not leak on each round.
 *
 * The bells of schedulers live in a process-wide list that only grows
 * (src/sched/bells.c): every scheduler that ran at once kept an entry,
 * reused across ABT_init cycles but lost when the library was unloaded,
 * so each dlopen/dlclose round leaked 32 bytes per ES (valgrind: "definitely
 * lost" from bb_bell_take). Found with a plugin that links libabt.
 *
 * This test loads a private copy of the library it is linked with (a copy
 * under another name is a separate object for the dynamic linker), runs
 * ABT_init, a secondary ES and ABT_finalize, unloads it, and compares the
 * heap in use after many rounds with that after the first few. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include "bb_test.h"

typedef int (*fn_init)(int, char **);
typedef int (*fn_void)(void);
typedef int (*fn_xs_create)(ABT_sched, ABT_xstream *);
typedef int (*fn_xs_free)(ABT_xstream *);

static char copy_path[64];

/* The copy defines the globals of the library this test links, under the
 * same names: clang's ASan takes that for a violation of the one-definition
 * rule, though the two copies never meet. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_odr_violation=0";
}

static int copy_library(void)
{
    Dl_info info;
    if (!dladdr((void *)ABT_init, &info) || !info.dli_fname)
        return -1;
    int in = open(info.dli_fname, O_RDONLY);
    strcpy(copy_path, "/tmp/bb_test_libabt_XXXXXX");
    int out = mkstemp(copy_path);
    if (in < 0 || out < 0)
        return -1;
    char buf[65536];
    ssize_t n;
    while ((n = read(in, buf, sizeof(buf))) > 0)
        if (write(out, buf, (size_t)n) != n)
            return -1;
    close(in);
    close(out);
    return n == 0 ? 0 : -1;
}

static void one_round(void)
{
    void *h = dlopen(copy_path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        BB_FAIL_AT("dlopen: %s", dlerror());
        return;
    }
    fn_init init = (fn_init)dlsym(h, "ABT_init");
    fn_void finalize = (fn_void)dlsym(h, "ABT_finalize");
    fn_xs_create xs_create = (fn_xs_create)dlsym(h, "ABT_xstream_create");
    fn_xs_free xs_free = (fn_xs_free)dlsym(h, "ABT_xstream_free");
    CHECK(init && finalize && xs_create && xs_free);
    if (init && finalize && xs_create && xs_free) {
        ABT_xstream es;
        CHECK_OK(init(0, NULL));
        CHECK_OK(xs_create(ABT_SCHED_NULL, &es));
        CHECK_OK(xs_free(&es));
        CHECK_OK(finalize());
    }
    CHECK_EQ(dlclose(h), 0);
}

int main(void)
{
    BB_TEST_BEGIN(60);
    if (RUNNING_ON_VALGRIND || BB_TEST_UNDER_TSAN || BB_TEST_UNDER_MSAN) {
        printf("SKIP: counts the heap with mallinfo2\n");
        return 77;
    }
    if (copy_library() != 0) {
        printf("SKIP: cannot copy the library\n");
        return 77;
    }
    enum { WARM = 10, ROUNDS = 200 };
    for (int i = 0; i < WARM; i++)
        one_round();
    size_t before = mallinfo2().uordblks;
    for (int i = 0; i < ROUNDS; i++)
        one_round();
    size_t after = mallinfo2().uordblks;
    unlink(copy_path);
    /* 32 bytes per ES per round leaked before: 12,800 here. */
    if (after > before + 2048)
        BB_FAIL_AT("heap grew by %zu bytes over %d rounds", after - before, (int)ROUNDS);
    BB_TEST_END();
}
