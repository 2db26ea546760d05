/*
 * Printing the runtime's objects (src/info/): shared by the ABT_info_*
 * printers and the stack dumps.
 */
#ifndef BB_INFO_H
#define BB_INFO_H

#include <stdio.h>

#include "bb_unit.h"
#include "bb_xstream.h"

void bb_info_print_xstream(FILE *fp, bb_xstream *es, int indent);
/* One line naming a work unit: kind, address, ID (assigning one if needed). */
void bb_info_print_unit_header(FILE *fp, bb_unit *u, int indent);

/* ABT_info_trigger_print_all_thread_stacks (src/info/dump.c): whether a dump
 * waits for the schedulers, and a main scheduler's stop for it. */
bool bb_info_dump_requested(void);
void bb_info_dump_rendezvous(bb_sched *s);

#endif
