/*
 * ABT_sched_config: (variable, value) pairs for a scheduler's creation.
 *
 * Variables are ABT_sched_config_var values, told apart by `idx`. The
 * predefined ones have negative indices, the same as in Argobots, since
 * programs pass them by value: -1 ends a list, -2 is the (ignored) access
 * hint, -3 the automatic flag, -4 the basic scheduler's event frequency. A
 * user scheduler numbers its own variables 0, 1, 2, ... and reads them back
 * by position with ABT_sched_config_read.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "bb_kvlist.h"
#include "bb_runtime.h"
#include "bb_sched.h"

ABT_sched_config_var ABT_sched_config_var_end = {.idx = -1, .type = ABT_SCHED_CONFIG_INT};
ABT_sched_config_var ABT_sched_config_access = {.idx = -2, .type = ABT_SCHED_CONFIG_INT};
ABT_sched_config_var ABT_sched_config_automatic = {.idx = -3, .type = ABT_SCHED_CONFIG_INT};
ABT_sched_config_var ABT_sched_basic_freq = {.idx = -4, .type = ABT_SCHED_CONFIG_INT};

_Static_assert((int)ABT_SCHED_CONFIG_INT == BB_KV_INT &&
                   (int)ABT_SCHED_CONFIG_DOUBLE == BB_KV_DOUBLE &&
                   (int)ABT_SCHED_CONFIG_PTR == BB_KV_PTR,
               "scheduler config types are the key/value list's");

struct ABT_sched_config_opaque {
    bb_kvlist entries; /* keyed by ABT_sched_config_var.idx */
};

int bb_sched_config_int(ABT_sched_config config, const ABT_sched_config_var *var, int fallback)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return fallback;
    return bb_kv_int(&config->entries, var->idx, fallback);
}

static void free_config(ABT_sched_config c)
{
    bb_kv_clear(&c->entries);
    free(c);
}

int ABT_sched_config_create(ABT_sched_config *config, ...)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    *config = ABT_SCHED_CONFIG_NULL;
    ABT_sched_config c = calloc(1, sizeof(*c));
    if (!c)
        return ABT_ERR_MEM;
    va_list ap;
    va_start(ap, config);
    int err = ABT_SUCCESS;
    for (;;) {
        ABT_sched_config_var var = va_arg(ap, ABT_sched_config_var);
        if (var.idx == ABT_sched_config_var_end.idx)
            break;
        bb_kv_value val = {0};
        switch (var.type) {
        case ABT_SCHED_CONFIG_INT:
            val.i = va_arg(ap, int);
            break;
        case ABT_SCHED_CONFIG_DOUBLE:
            val.d = va_arg(ap, double);
            break;
        case ABT_SCHED_CONFIG_PTR:
            val.p = va_arg(ap, void *);
            break;
        default:
            err = ABT_ERR_INV_ARG; /* cannot even tell how long the value is */
            break;
        }
        if (err == ABT_SUCCESS)
            err = bb_kv_put(&c->entries, var.idx, var.type, &val);
        if (err != ABT_SUCCESS)
            break;
    }
    va_end(ap);
    if (err != ABT_SUCCESS) {
        free_config(c);
        return err;
    }
    *config = c;
    return ABT_SUCCESS;
}

int ABT_sched_config_read(ABT_sched_config config, int num_vars, ...)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    va_list ap;
    va_start(ap, num_vars);
    for (int idx = 0; idx < num_vars; idx++) {
        void *out = va_arg(ap, void *);
        if (out)
            (void)bb_kv_get(&config->entries, idx, NULL, out); /* absent: untouched */
    }
    va_end(ap);
    return ABT_SUCCESS;
}

int ABT_sched_config_free(ABT_sched_config *config)
{
    if (!config || *config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    free_config(*config);
    *config = ABT_SCHED_CONFIG_NULL;
    return ABT_SUCCESS;
}

int ABT_sched_config_set(ABT_sched_config config, int idx, ABT_sched_config_type type,
                         const void *val)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    if (!val) { /* no value: forget the variable */
        bb_kv_remove(&config->entries, idx);
        return ABT_SUCCESS;
    }
    if (bb_kv_value_size(type) == 0)
        return ABT_ERR_INV_ARG;
    return bb_kv_put(&config->entries, idx, type, val);
}

int ABT_sched_config_get(ABT_sched_config config, int idx, ABT_sched_config_type *type,
                         void *val)
{
    if (config == ABT_SCHED_CONFIG_NULL)
        return ABT_ERR_INV_SCHED_CONFIG;
    int t;
    int err = bb_kv_get(&config->entries, idx, &t, val);
    if (err == ABT_SUCCESS && type)
        *type = (ABT_sched_config_type)t;
    return err;
}
