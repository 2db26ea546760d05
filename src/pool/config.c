/*
 * ABT_pool_config: (key, type, value) entries handed to a user pool's init
 * callback. ABT_pool_config_automatic (key -2, int, as in Argobots) is the
 * one key the runtime itself reads.
 */
#include <stdlib.h>

#include "bb_kvlist.h"
#include "bb_pool.h"
#include "bb_runtime.h"

const ABT_pool_config_var ABT_pool_config_automatic = {.key = -2, .type = ABT_POOL_CONFIG_INT};

_Static_assert((int)ABT_POOL_CONFIG_INT == BB_KV_INT &&
                   (int)ABT_POOL_CONFIG_DOUBLE == BB_KV_DOUBLE &&
                   (int)ABT_POOL_CONFIG_PTR == BB_KV_PTR,
               "pool config types are the key/value list's");

struct ABT_pool_config_opaque {
    bb_kvlist entries;
};

bool bb_pool_config_automatic(ABT_pool_config config, bool fallback)
{
    if (config == ABT_POOL_CONFIG_NULL)
        return fallback;
    return bb_kv_int(&config->entries, ABT_pool_config_automatic.key, fallback) != 0;
}

int ABT_pool_config_create(ABT_pool_config *config)
{
    if (!config)
        return ABT_ERR_INV_ARG;
    *config = ABT_POOL_CONFIG_NULL;
    ABT_pool_config c = calloc(1, sizeof(*c));
    if (!c)
        return ABT_ERR_MEM;
    *config = c;
    return ABT_SUCCESS;
}

int ABT_pool_config_free(ABT_pool_config *config)
{
    if (!config || *config == ABT_POOL_CONFIG_NULL)
        return ABT_ERR_INV_POOL_CONFIG;
    bb_kv_clear(&(*config)->entries);
    free(*config);
    *config = ABT_POOL_CONFIG_NULL;
    return ABT_SUCCESS;
}

int ABT_pool_config_set(ABT_pool_config config, int key, ABT_pool_config_type type,
                        const void *val)
{
    if (config == ABT_POOL_CONFIG_NULL)
        return ABT_ERR_INV_POOL_CONFIG;
    if (!val) { /* no value: forget the key */
        bb_kv_remove(&config->entries, key);
        return ABT_SUCCESS;
    }
    if (bb_kv_value_size(type) == 0)
        return ABT_ERR_INV_ARG;
    return bb_kv_put(&config->entries, key, type, val);
}

int ABT_pool_config_get(ABT_pool_config config, int key, ABT_pool_config_type *type, void *val)
{
    if (config == ABT_POOL_CONFIG_NULL)
        return ABT_ERR_INV_POOL_CONFIG;
    int t;
    int err = bb_kv_get(&config->entries, key, &t, val);
    if (err == ABT_SUCCESS && type)
        *type = (ABT_pool_config_type)t;
    return err;
}
