/* ULT attributes (ABT_thread_attr): what a ULT is created with. */
#ifndef BB_ATTR_H
#define BB_ATTR_H

#include <abt.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    void *stack;         /* user-supplied stack, or NULL */
    size_t stacksize;
    bool migratable;
    void (*migrate_cb)(ABT_thread, void *);
    void *migrate_cb_arg;
} bb_attr;

static inline bb_attr *bb_attr_of(ABT_thread_attr handle)
{
    return (bb_attr *)(void *)handle;
}

#endif
