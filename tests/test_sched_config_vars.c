/* ABT_sched_config: the predefined variables have the Argobots 1.2 indices
 * (-1 end, -2 access, -3 automatic, -4 basic_freq) and type INT; create takes
 * (variable by value, value) pairs ended by ABT_sched_config_var_end, a later
 * repeat of an idx wins; read is positional by idx (the i-th pointer gets
 * idx i, an absent idx or a NULL pointer leaves its variable untouched,
 * predefined entries are never read); set adds or overwrites (value and type),
 * set with a NULL value deletes; get returns type and value (negative idx
 * too). Errors: NULL config -> INV_SCHED_CONFIG, absent idx in get -> INV_ARG,
 * unknown type in create or set -> INV_ARG. */
#include "bb_test.h"

int main(void)
{
    BB_TEST_BEGIN(10);
    CHECK_OK(ABT_init(0, NULL));

    /* The predefined variables. */
    CHECK_EQ(ABT_sched_config_var_end.idx, -1);
    CHECK_EQ(ABT_sched_config_access.idx, -2);
    CHECK_EQ(ABT_sched_config_automatic.idx, -3);
    CHECK_EQ(ABT_sched_basic_freq.idx, -4);
    CHECK_EQ(ABT_sched_config_var_end.type, ABT_SCHED_CONFIG_INT);
    CHECK_EQ(ABT_sched_config_access.type, ABT_SCHED_CONFIG_INT);
    CHECK_EQ(ABT_sched_config_automatic.type, ABT_SCHED_CONFIG_INT);
    CHECK_EQ(ABT_sched_basic_freq.type, ABT_SCHED_CONFIG_INT);
    CHECK_EQ(ABT_SCHED_CONFIG_INT, 0);
    CHECK_EQ(ABT_SCHED_CONFIG_DOUBLE, 1);
    CHECK_EQ(ABT_SCHED_CONFIG_PTR, 2);

    /* User variables 0 (int), 1 (double), 2 (pointer) and 4 (int); 3 absent. */
    ABT_sched_config_var v0 = {0, ABT_SCHED_CONFIG_INT};
    ABT_sched_config_var v1 = {1, ABT_SCHED_CONFIG_DOUBLE};
    ABT_sched_config_var v2 = {2, ABT_SCHED_CONFIG_PTR};
    ABT_sched_config_var v4 = {4, ABT_SCHED_CONFIG_INT};
    static int target;
    ABT_sched_config cfg = ABT_SCHED_CONFIG_NULL;
    CHECK_OK(ABT_sched_config_create(&cfg, v0, 42, ABT_sched_basic_freq, 7, v1, 2.5, v2,
                                     (void *)&target, ABT_sched_config_automatic, 1, v4, -9,
                                     v0, 43, /* a later repeat wins */
                                     ABT_sched_config_var_end));
    CHECK(cfg != ABT_SCHED_CONFIG_NULL);

    int i0 = -1, i3 = 99, i4 = 0;
    double d1 = 0.0;
    void *p2 = NULL;
    CHECK_OK(ABT_sched_config_read(cfg, 5, &i0, &d1, &p2, &i3, &i4));
    CHECK_EQ(i0, 43);
    CHECK(d1 == 2.5);
    CHECK(p2 == (void *)&target);
    CHECK_EQ(i3, 99); /* absent: untouched */
    CHECK_EQ(i4, -9);

    /* Fewer pointers than variables; NULL pointers are skipped. */
    i0 = -1;
    d1 = -1.0;
    CHECK_OK(ABT_sched_config_read(cfg, 2, NULL, &d1));
    CHECK(d1 == 2.5);
    CHECK_OK(ABT_sched_config_read(cfg, 1, &i0));
    CHECK_EQ(i0, 43);
    CHECK_OK(ABT_sched_config_read(cfg, 0));
    CHECK_OK(ABT_sched_config_read(cfg, -1)); /* follows the code: nothing read */

    /* get: predefined and user entries. */
    ABT_sched_config_type type = (ABT_sched_config_type)77;
    int ival = 0;
    CHECK_OK(ABT_sched_config_get(cfg, ABT_sched_basic_freq.idx, &type, &ival));
    CHECK_EQ(type, ABT_SCHED_CONFIG_INT);
    CHECK_EQ(ival, 7);
    CHECK_OK(ABT_sched_config_get(cfg, -3, &type, &ival));
    CHECK_EQ(type, ABT_SCHED_CONFIG_INT);
    CHECK_EQ(ival, 1);
    double dval = 0.0;
    CHECK_OK(ABT_sched_config_get(cfg, 1, &type, &dval));
    CHECK_EQ(type, ABT_SCHED_CONFIG_DOUBLE);
    CHECK(dval == 2.5);
    void *pval = NULL;
    CHECK_OK(ABT_sched_config_get(cfg, 2, &type, &pval));
    CHECK_EQ(type, ABT_SCHED_CONFIG_PTR);
    CHECK(pval == (void *)&target);
    CHECK_OK(ABT_sched_config_get(cfg, 4, NULL, NULL)); /* both outputs optional */
    type = (ABT_sched_config_type)77;
    CHECK_OK(ABT_sched_config_get(cfg, 4, &type, NULL));
    CHECK_EQ(type, ABT_SCHED_CONFIG_INT);
    ival = 0;
    CHECK_OK(ABT_sched_config_get(cfg, 4, NULL, &ival));
    CHECK_EQ(ival, -9);
    /* Absent entries. */
    ival = 5;
    CHECK_ERR(ABT_sched_config_get(cfg, 3, &type, &ival), ABT_ERR_INV_ARG);
    CHECK_EQ(ival, 5);
    CHECK_ERR(ABT_sched_config_get(cfg, ABT_sched_config_access.idx, &type, &ival),
              ABT_ERR_INV_ARG);
    CHECK_ERR(ABT_sched_config_get(cfg, 1000, NULL, NULL), ABT_ERR_INV_ARG);

    /* set: add idx 3 (double), overwrite idx 0 with a pointer, set a
     * predefined one. */
    double three = 3.25;
    CHECK_OK(ABT_sched_config_set(cfg, 3, ABT_SCHED_CONFIG_DOUBLE, &three));
    three = 0.0; /* the value was copied */
    void *ptr = &i4;
    CHECK_OK(ABT_sched_config_set(cfg, 0, ABT_SCHED_CONFIG_PTR, &ptr));
    int freq = 11;
    CHECK_OK(ABT_sched_config_set(cfg, ABT_sched_basic_freq.idx, ABT_SCHED_CONFIG_INT, &freq));
    double d3 = 0.0;
    void *p0 = NULL;
    CHECK_OK(ABT_sched_config_read(cfg, 4, &p0, NULL, NULL, &d3));
    CHECK(d3 == 3.25);
    CHECK(p0 == (void *)&i4);
    CHECK_OK(ABT_sched_config_get(cfg, 0, &type, NULL));
    CHECK_EQ(type, ABT_SCHED_CONFIG_PTR);
    CHECK_OK(ABT_sched_config_get(cfg, -4, NULL, &ival));
    CHECK_EQ(ival, 11);
    /* An unknown type is refused, and nothing changes. */
    CHECK_ERR(ABT_sched_config_set(cfg, 4, (ABT_sched_config_type)9, &freq), ABT_ERR_INV_ARG);
    CHECK_OK(ABT_sched_config_get(cfg, 4, &type, &ival));
    CHECK_EQ(type, ABT_SCHED_CONFIG_INT);
    CHECK_EQ(ival, -9);
    /* A NULL value deletes the entry (and is fine for an absent one). */
    CHECK_OK(ABT_sched_config_set(cfg, 4, ABT_SCHED_CONFIG_INT, NULL));
    CHECK_ERR(ABT_sched_config_get(cfg, 4, NULL, NULL), ABT_ERR_INV_ARG);
    i4 = 123;
    CHECK_OK(ABT_sched_config_read(cfg, 5, NULL, NULL, NULL, NULL, &i4));
    CHECK_EQ(i4, 123);
    CHECK_OK(ABT_sched_config_set(cfg, 4, ABT_SCHED_CONFIG_INT, NULL));

    /* NULL config. */
    CHECK_ERR(ABT_sched_config_read(ABT_SCHED_CONFIG_NULL, 1, &i0), ABT_ERR_INV_SCHED_CONFIG);
    CHECK_ERR(ABT_sched_config_set(ABT_SCHED_CONFIG_NULL, 0, ABT_SCHED_CONFIG_INT, &freq),
              ABT_ERR_INV_SCHED_CONFIG);
    CHECK_ERR(ABT_sched_config_get(ABT_SCHED_CONFIG_NULL, 0, &type, &ival),
              ABT_ERR_INV_SCHED_CONFIG);
    ABT_sched_config null_cfg = ABT_SCHED_CONFIG_NULL;
    CHECK_ERR(ABT_sched_config_free(&null_cfg), ABT_ERR_INV_SCHED_CONFIG);

    CHECK_OK(ABT_sched_config_free(&cfg));
    CHECK(cfg == ABT_SCHED_CONFIG_NULL);

    /* An empty list, and a list with an unknown type. */
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_config_var_end));
    CHECK(cfg != ABT_SCHED_CONFIG_NULL);
    CHECK_ERR(ABT_sched_config_get(cfg, 0, NULL, NULL), ABT_ERR_INV_ARG);
    i0 = 17;
    CHECK_OK(ABT_sched_config_read(cfg, 1, &i0));
    CHECK_EQ(i0, 17);
    CHECK_OK(ABT_sched_config_free(&cfg));
    ABT_sched_config_var bad = {0, (ABT_sched_config_type)5};
    ABT_sched_config bad_cfg = ABT_SCHED_CONFIG_NULL;
    CHECK_ERR(ABT_sched_config_create(&bad_cfg, v4, 1, bad, 1, ABT_sched_config_var_end),
              ABT_ERR_INV_ARG);

    /* A config is usable for a predefined scheduler, and can be freed right
     * after the scheduler is made. */
    CHECK_OK(ABT_sched_config_create(&cfg, ABT_sched_basic_freq, 1, ABT_sched_config_access,
                                     ABT_POOL_ACCESS_PRIV, ABT_sched_config_var_end));
    ABT_sched s;
    CHECK_OK(ABT_sched_create_basic(ABT_SCHED_BASIC, 0, NULL, cfg, &s));
    CHECK_OK(ABT_sched_config_free(&cfg));
    ABT_pool own = ABT_POOL_NULL;
    CHECK_OK(ABT_sched_get_pools(s, 1, 0, &own));
    ABT_pool_access access = ABT_POOL_ACCESS_PRIV;
    CHECK_OK(ABT_pool_get_access(own, &access));
    CHECK_EQ(access, ABT_POOL_ACCESS_MPMC); /* ABT_sched_config_access is ignored */
    CHECK_OK(ABT_sched_free(&s));

    CHECK_OK(ABT_finalize());
    BB_TEST_END();
}
