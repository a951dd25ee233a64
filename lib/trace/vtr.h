/* SPDX-License-Identifier: GPL-2.0-only */
/* trace_vtr.h - The native .vtr trace format (docs/trace-format.md): strict line parser. The
 * writer is public (vpmc_vtr_write_header(), vpmc_vtr_write_event() in vpmc.h). */
#ifndef VPMC_TRACE_VTR_H
#define VPMC_TRACE_VTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lineerr.h"
#include "vpmc.h"

#define VTR_VERSION 1
#define VTR_SOURCE_MAX 256 /* !source values, with the NUL */
#define VTR_GEN_MAX 16384 /* all !gen lines, with the NUL */

struct vtr_parser {
	bool header_seen, event_seen;
	bool pmu_seen, host_seen, source_seen;
	struct vpmc_pmu_config pmu;     /* from !pmu and !host, or the defaults */
	char source_kind[VTR_SOURCE_MAX]; /* "" if !source has no kind= */
	char source_file[VTR_SOURCE_MAX];
	uint64_t last_time[VPMC_MAX_VCPUS]; /* per vCPU: time must not decrease */
	bool gaps_seen;                 /* "!gaps base|recorded" */
	enum vpmc_gaps gaps;
	size_t gen_len;                 /* "!gen" lines, each "KEY=VALUE ..." + '\n' */
	char gen[VTR_GEN_MAX];
	bool nested_seen;               /* "!nested" (nested_vtr.c) */
	struct vpmc_nested_assume nested;
};

/* A parser before the first line: Intel defaults, nothing seen. */
void vtr_parser_init(struct vtr_parser *p);

/**
 * vtr_parse_line() - Parse one line of a .vtr file.
 * @p: parser state (the header, directives and per-vCPU times seen so far)
 * @line: the line without its '\n'; need not be NUL-terminated
 * @len: its length
 * @ev: filled (every field, unused ones zero) when the line is an event
 * @err: column and message on failure
 *
 * Every rule of the format is enforced: the "!vpmcsim-trace 1" header before anything else,
 * directives (!pmu, !host, !source) only before the first event and each at most once, no
 * unknown directive or key, decimal time non-decreasing per vCPU, vCPU 0..4095, MSR indices in
 * 0x-hex, numbers decimal or 0x-hex, the arguments of each event, cpl 0..3.
 *
 * Return: 1 (event in *@ev), 0 (comment, blank line or directive), or VPMC_ERR_PARSE.
 */
int vtr_parse_line(struct vtr_parser *p, const char *line, size_t len, struct vpmc_event *ev,
		   struct vpmc__lineerr *err);

/* End of input: Return 0, or VPMC_ERR_PARSE if the header never came (err->col = 0). */
int vtr_finish(const struct vtr_parser *p, struct vpmc__lineerr *err);

/* The first line of a .vtr file (what format detection looks for). */
#define VTR_MAGIC "!vpmcsim-trace"

#endif /* VPMC_TRACE_VTR_H */
