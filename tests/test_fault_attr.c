/* Allocation failure inside attribute creation (issue #5):
 * ABT_thread_attr_create (*newattr = ABT_THREAD_ATTR_NULL on error) and
 * ABT_thread_get_attr (a new attribute object: *attr untouched or NULL). For
 * every k: ABT_ERR_MEM, no leak, and attributes still work. */
#include "fault_inject.h"

static ABT_thread g_thread;
static void body(void *arg)
{
    if (arg)
        (*(int *)arg)++;
}

static int c_attr(void **o) { return ABT_thread_attr_create((ABT_thread_attr *)o); }
static void d_attr(void **o)
{
    ABT_thread_attr a = (ABT_thread_attr)*o;
    CHECK(a != ABT_THREAD_ATTR_NULL);
    CHECK_OK(ABT_thread_attr_free(&a));
}
static void u_attr(void)
{
    ABT_thread_attr a;
    ABT_thread t;
    size_t size = 0;
    int ran = 0;
    CHECK_OK(ABT_thread_attr_create(&a));
    CHECK_OK(ABT_thread_attr_set_stacksize(a, 48 * 1024));
    CHECK_OK(ABT_thread_attr_get_stacksize(a, &size));
    CHECK_EQ(size, 48 * 1024);
    CHECK_OK(ABT_thread_create(fi_main_pool(), body, &ran, a, &t));
    CHECK_OK(ABT_thread_free(&t));
    CHECK_EQ(ran, 1);
    CHECK_OK(ABT_thread_attr_free(&a));
}

static void s_thread(void)
{
    CHECK_OK(ABT_thread_create(fi_main_pool(), body, NULL, ABT_THREAD_ATTR_NULL, &g_thread));
}
static void t_thread(void) { CHECK_OK(ABT_thread_free(&g_thread)); }
static int c_get_attr(void **o) { return ABT_thread_get_attr(g_thread, (ABT_thread_attr *)o); }
static void u_get_attr(void)
{
    ABT_thread_attr a;
    size_t size = 0;
    CHECK_OK(ABT_thread_get_attr(g_thread, &a));
    CHECK_OK(ABT_thread_attr_get_stacksize(a, &size));
    CHECK(size > 0);
    CHECK_OK(ABT_thread_attr_free(&a));
    u_attr();
}

int main(void)
{
    BB_TEST_BEGIN(30);
    fi_begin();
    fi_case cases[] = {
        {"ABT_thread_attr_create", FI_OUT_NULL, 0, NULL, c_attr, d_attr, NULL, u_attr, NULL},
        {"ABT_thread_get_attr", FI_OUT_UNTOUCHED, 0, s_thread, c_get_attr, d_attr, NULL,
         u_get_attr, t_thread},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        fi_sweep(&cases[i]);
    BB_TEST_END();
}
