/* ABT_eventual with a payload: set copies nbytes into the eventual's own
 * buffer; wait and test give the address of that buffer (not the setter's
 * variable), which holds the data even after the setter's copy changes; the
 * address stays the same across reset/set; a set smaller than the capacity
 * copies only its bytes; test when not ready leaves *value untouched; value
 * NULL is allowed in wait and test; an eventual of 0 bytes gives NULL. */
#include "bb_test.h"
#include <stdint.h>

typedef struct {
    int a;
    double b;
    char s[20];
} payload;

static ABT_eventual ev;
static payload *got_by_ult;

static void setter(void *arg)
{
    payload p = {42, 2.5, "from another ES"};
    (void)arg;
    CHECK_OK(ABT_eventual_set(ev, &p, sizeof(p)));
    memset(&p, 0, sizeof(p)); /* the eventual has its own copy */
}

static void waiter(void *arg)
{
    (void)arg;
    void *v = NULL;
    CHECK_OK(ABT_eventual_wait(ev, &v));
    got_by_ult = v;
}

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));
    ABT_xstream es0, es1;
    ABT_pool pool0;
    CHECK_OK(ABT_xstream_self(&es0));
    CHECK_OK(ABT_xstream_get_main_pools(es0, 1, &pool0));
    CHECK_OK(ABT_xstream_create(ABT_SCHED_NULL, &es1));
    CHECK_OK(ABT_eventual_create(sizeof(payload), &ev));

    /* Not ready: *value untouched. */
    void *v = (void *)(intptr_t)0x1234;
    ABT_bool ready = ABT_TRUE;
    CHECK_OK(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    CHECK(v == (void *)(intptr_t)0x1234);
    CHECK_OK(ABT_eventual_test(ev, NULL, &ready));
    CHECK_EQ(ready, ABT_FALSE);

    /* Set on another ES, waited for here and by a ULT. */
    ABT_thread w, s;
    CHECK_OK(ABT_thread_create(pool0, waiter, NULL, ABT_THREAD_ATTR_NULL, &w));
    CHECK_OK(ABT_thread_create_on_xstream(es1, setter, NULL, ABT_THREAD_ATTR_NULL, &s));
    v = NULL;
    CHECK_OK(ABT_eventual_wait(ev, &v));
    CHECK_OK(ABT_thread_free(&s));
    CHECK_OK(ABT_thread_free(&w));
    payload *p = v;
    CHECK(p != NULL);
    CHECK_EQ(p->a, 42);
    CHECK(p->b == 2.5);
    CHECK_EQ(strcmp(p->s, "from another ES"), 0);
    CHECK(got_by_ult == p);
    void *v2 = NULL;
    CHECK_OK(ABT_eventual_test(ev, &v2, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK(v2 == v);
    CHECK_OK(ABT_eventual_wait(ev, NULL));
    CHECK_OK(ABT_eventual_test(ev, NULL, &ready));
    CHECK_EQ(ready, ABT_TRUE);

    /* Reset and set again: new data, same buffer. */
    CHECK_OK(ABT_eventual_reset(ev));
    v2 = (void *)(intptr_t)0x1234;
    CHECK_OK(ABT_eventual_test(ev, &v2, &ready));
    CHECK_EQ(ready, ABT_FALSE);
    CHECK(v2 == (void *)(intptr_t)0x1234);
    payload q = {-7, -1.0, "second"};
    CHECK_OK(ABT_eventual_set(ev, &q, sizeof(q)));
    CHECK_OK(ABT_eventual_wait(ev, &v2));
    CHECK(v2 == v);
    CHECK(v2 != (void *)&q);
    CHECK_EQ(((payload *)v2)->a, -7);
    CHECK_EQ(strcmp(((payload *)v2)->s, "second"), 0);

    /* A shorter set copies only its bytes. */
    CHECK_OK(ABT_eventual_reset(ev));
    int just_a = 99;
    CHECK_OK(ABT_eventual_set(ev, &just_a, sizeof(just_a)));
    CHECK_OK(ABT_eventual_wait(ev, &v2));
    CHECK(v2 == v);
    CHECK_EQ(((payload *)v2)->a, 99);
    CHECK_OK(ABT_eventual_free(&ev));

    /* No buffer. */
    CHECK_OK(ABT_eventual_create(0, &ev));
    CHECK_ERR(ABT_eventual_set(ev, &just_a, 1), ABT_ERR_INV_EVENTUAL);
    CHECK_OK(ABT_eventual_set(ev, NULL, 0));
    v = (void *)(intptr_t)0x1234;
    CHECK_OK(ABT_eventual_wait(ev, &v));
    CHECK(v == NULL);
    v = (void *)(intptr_t)0x1234;
    CHECK_OK(ABT_eventual_test(ev, &v, &ready));
    CHECK_EQ(ready, ABT_TRUE);
    CHECK(v == NULL);
    CHECK_OK(ABT_eventual_free(&ev));

    CHECK_OK(ABT_xstream_join(es1));
    CHECK_OK(ABT_xstream_free(&es1));
    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
