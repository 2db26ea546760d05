/*
 * A small list of typed (key, value) entries: what ABT_sched_config and
 * ABT_pool_config both are. Types are those two APIs' INT (0), DOUBLE (1)
 * and PTR (2), which have the same values in both. A handful of entries at
 * most, so a linear search.
 */
#ifndef BB_KVLIST_H
#define BB_KVLIST_H

#include <stddef.h>

enum { BB_KV_INT = 0, BB_KV_DOUBLE = 1, BB_KV_PTR = 2 };

typedef union {
    int i;
    double d;
    void *p;
} bb_kv_value;

typedef struct {
    int key;
    int type;
    bb_kv_value val;
} bb_kv_entry;

typedef struct {
    int n, cap;
    bb_kv_entry *entries;
} bb_kvlist;

size_t bb_kv_value_size(int type); /* 0 for an unknown type */
bb_kv_entry *bb_kv_find(bb_kvlist *list, int key);
int bb_kv_put(bb_kvlist *list, int key, int type, const void *val); /* ABT_SUCCESS, ABT_ERR_MEM */
void bb_kv_remove(bb_kvlist *list, int key);
int bb_kv_get(bb_kvlist *list, int key, int *type, void *val); /* ABT_ERR_INV_ARG if absent */
int bb_kv_int(bb_kvlist *list, int key, int fallback);
void bb_kv_clear(bb_kvlist *list);

#endif
