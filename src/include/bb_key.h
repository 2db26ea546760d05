/*
 * A work unit's key values (src/unit/key.c): slots indexed by key, each with
 * the generation of the key that set it.
 */
#ifndef BB_KEY_H
#define BB_KEY_H

#include <stdint.h>

typedef struct bb_unit bb_unit;

typedef struct bb_keytab {
    uint32_t num_slots;
    struct {
        uint32_t generation;          /* of the key that set it; 0: never set */
        void (*destructor)(void *);   /* that key's, run when the unit is freed */
        void *value;
    } slots[];
} bb_keytab;

/* Run the destructors of the unit's values and drop its table. */
void bb_unit_free_keys(bb_unit *u);

#endif
