/* SPDX-License-Identifier: GPL-2.0-only */
/* nested_import.h - What the trace layer adds for nested virtualization (nested-gpc.md §6.9):
 * the "!nested" directive and the nested events of a .vtr, and kvm_nested_* records as nested
 * events. Internal to lib/trace; the public side is vpmc/nested.h. */
#ifndef VPMC_NESTED_IMPORT_H
#define VPMC_NESTED_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record.h"
#include "vpmc.h"

/* ---- .vtr (nested_vtr.c) ---- */

/* Messages of the .vtr hooks below: at most this long, with the NUL. */
#define VTR_NESTED_MSG_MAX 256

/**
 * vtr_nested_directive() - The arguments of "!nested" (the text after the directive's name).
 * @a: set from the keys given (defaults for the others)
 * @p: the text, up to @end
 * @end: its end
 * @at: set to where the error is
 * @msg: set to the error's message (VTR_NESTED_MSG_MAX bytes)
 *
 * Return: 0, or VPMC_ERR_PARSE.
 */
int vtr_nested_directive(struct vpmc_nested_assume *a, const char *p, const char *end,
			 const char **at, char *msg);

/* The nested event type named by the @n bytes at @p, or VPMC_EV_NR if none is. */
enum vpmc_event_type vtr_nested_type(const char *p, size_t n);

/**
 * vtr_nested_args() - The arguments of a nested event (ev->type set) into @ev.
 * @ev: the event
 * @p: the text after the event's name, up to @end
 * @end: its end
 * @at: set to where the error is
 * @msg: set to the error's message (VTR_NESTED_MSG_MAX bytes)
 *
 * Return: 0, or VPMC_ERR_PARSE.
 */
int vtr_nested_args(struct vpmc_event *ev, const char *p, const char *end, const char **at,
		    char *msg);

/* Write the arguments of nested event @ev (after "TIME VCPU NAME"), then '\n'. Return: 0,
 * VPMC_ERR_INVAL (an event the format cannot hold), or VPMC_ERR_IO. */
int vtr_nested_write_args(FILE *out, const struct vpmc_event *ev);

/* ---- kvm records (nested_import.c) ---- */

/* Whether @type is one of the nested events. */
static inline bool vpmc__is_nested_event(enum vpmc_event_type type)
{
	return (unsigned int)type >= VPMC_EV_NEXIT && (unsigned int)type < VPMC_EV_NESTED_END;
}

/* Fill rec->nested from the text @line (@len bytes) that gave @rec: info1 of kvm_nested_vmexit,
 * the GPA and label of kvm_nested_vmenter / vmrun, the words of kvm_nested_intercepts. Fields
 * a layout does not print stay unset. */
void nested_text_fields(struct kvm_record *rec, const char *line, size_t len);

/* The nested event a record makes (kvm_nested_vmexit, _inject, _vmenter / _vmrun,
 * _intercepts, _vmenter_failed), time and vCPU unset. Return: whether it makes one. */
bool nested_record_event(const struct kvm_record *rec, struct vpmc_event *ev);

#endif /* VPMC_NESTED_IMPORT_H */
