/*
 * A work unit's key values (src/unit/key.c): slots indexed by key, each with
 * the generation of the key that set it.
 *
 * Another thread may set a value of a running unit (ABT_thread_set_specific),
 * so the table is never resized in place: a bigger copy is published and the
 * old one kept, for readers that still hold it, until the unit is freed.
 */
#ifndef BB_KEY_H
#define BB_KEY_H

#include <stdint.h>

typedef struct bb_unit bb_unit;

/* A value whose key was freed and whose slot a new key took: its destructor
 * still runs when the unit is freed. */
typedef struct bb_key_orphan {
    struct bb_key_orphan *next;
    void (*destructor)(void *);
    void *value;
} bb_key_orphan;

typedef struct bb_keytab {
    struct bb_keytab *retired;  /* the smaller table this one replaced */
    bb_key_orphan *orphans;
    uint32_t num_slots;
    struct {
        uint64_t generation;          /* of the key that set it; 0: never set (key.c) */
        void (*destructor)(void *);   /* that key's, run when the unit is freed */
        void *value;
    } slots[];
} bb_keytab;

/* Run the destructors of the unit's values and drop its table. */
void bb_unit_free_keys(bb_unit *u);
void bb_unit_drop_keys(bb_unit *u);

#endif
