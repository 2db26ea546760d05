/* ABT_info_print_thread says "named: no" for the primary ULT, which
 * ABT_thread_is_unnamed reports as unnamed (as Argobots does), and for a
 * ULT created without a handle; "yes" for one created with a handle. The
 * printer read the creation flag, not the predicate, and called the
 * primary ULT named. */
#include "bb_test.h"
#include "capture_util.h"

/* The value of the printed "named" line, or "" if there is none. */
static const char *named_field(const char *text, char out[8])
{
    out[0] = '\0';
    const char *line = strstr(text, "  named ");
    if (line)
        sscanf(line, " named : %7s", out); /* a blank matches any run of them */
    return out;
}

static void check_printed(ABT_thread t, const char *expected)
{
    char *text, value[8];
    CAPTURE(text, ABT_info_print_thread(fp, t));
    CHECK(strcmp(named_field(text, value), expected) == 0);
    if (strcmp(value, expected) != 0)
        printf("printed named: '%s', expected '%s'\n", value, expected);
    free(text);
}

static void unnamed_body(void *arg)
{
    ABT_thread self;
    CHECK_OK(ABT_self_get_thread(&self));
    ABT_bool unnamed = ABT_FALSE;
    CHECK_OK(ABT_thread_is_unnamed(self, &unnamed));
    CHECK_EQ(unnamed, ABT_TRUE);
    check_printed(self, "no");
    *(int *)arg = 1;
}

static void named_body(void *arg)
{
    (void)arg;
}

int main(void)
{
    BB_TEST_BEGIN(20);
    CHECK_OK(ABT_init(0, NULL));

    ABT_thread primary;
    CHECK_OK(ABT_thread_self(&primary));
    ABT_bool unnamed = ABT_FALSE;
    CHECK_OK(ABT_thread_is_unnamed(primary, &unnamed));
    CHECK_EQ(unnamed, ABT_TRUE);
    check_printed(primary, "no");

    ABT_pool pool = bb_test_main_pool();
    int ran = 0;
    CHECK_OK(ABT_thread_create(pool, unnamed_body, &ran, ABT_THREAD_ATTR_NULL, NULL));
    ABT_thread named;
    CHECK_OK(ABT_thread_create(pool, named_body, NULL, ABT_THREAD_ATTR_NULL, &named));
    check_printed(named, "yes");
    CHECK_OK(ABT_thread_free(&named));
    while (!ran)
        CHECK_OK(ABT_thread_yield());

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
