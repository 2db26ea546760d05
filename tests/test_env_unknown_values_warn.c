/* A value of ABT_STACK_OVERFLOW_CHECK or ABT_MEM_LP_ALLOC that bobbin does
 * not know gets a warning on stderr at ABT_init, as any other setting's
 * does, and the documented fallback (no guard pages; regular-page regions),
 * instead of being taken silently; a known value gets no warning. Before,
 * a typo such as mprotect-strict turned the guard pages off without a
 * word. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bb_test.h"

/* What ABT_init and ABT_finalize write to stderr with `name`=`value`
 * (malloc'd), and the overflow check ABT_info_query_config reports. */
static char *init_stderr(const char *name, const char *value, int *guard_mode)
{
    setenv(name, value, 1);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    FILE *capture = tmpfile();
    CHECK(saved >= 0 && capture != NULL);
    dup2(fileno(capture), STDERR_FILENO);
    CHECK_OK(ABT_init(0, NULL));
    CHECK_OK(ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK, guard_mode));
    CHECK_OK(ABT_finalize());
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    static char text[4096];
    rewind(capture);
    size_t n = fread(text, 1, sizeof(text) - 1, capture);
    text[n] = '\0';
    fclose(capture);
    unsetenv(name);
    return strdup(text);
}

static void expect(const char *name, const char *value, bool warns, int guard_mode)
{
    int mode = -1;
    char *err = init_stderr(name, value, &mode);
    bool warned = strstr(err, name) != NULL && strstr(err, value) != NULL;
    if (warned != warns)
        BB_FAIL_AT("%s=%s: %s (stderr: \"%s\")", name, value,
                   warns ? "no warning" : "an unexpected warning", err);
    CHECK_EQ(mode, guard_mode);
    free(err);
}

int main(void)
{
    BB_TEST_BEGIN(30);
    unsetenv("ABT_STACK_OVERFLOW_CHECK");
    unsetenv("ABT_MEM_LP_ALLOC");
    expect("ABT_STACK_OVERFLOW_CHECK", "mprotect-strict", true, 0);
    expect("ABT_STACK_OVERFLOW_CHECK", "canary", true, 0);
    expect("ABT_STACK_OVERFLOW_CHECK", "none", false, 0);
    expect("ABT_STACK_OVERFLOW_CHECK", "mprotect_strict", false, 3);
    expect("ABT_MEM_LP_ALLOC", "huge", true, 2);
    expect("ABT_MEM_LP_ALLOC", "thp", false, 2);
    BB_TEST_END();
}
