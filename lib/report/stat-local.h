/* SPDX-License-Identifier: GPL-2.0-only */
/* stat-local.h - Exit statistics' state (internal to lib/report: stat.c and the summaries). */
#ifndef VPMC_REPORT_STAT_LOCAL_H
#define VPMC_REPORT_STAT_LOCAL_H

#include <jansson.h>
#include <vpmc/stat.h>

#include "hist.h"
#include "internal.h"

#define STAT_EXACT_MAX 1000 /* samples kept for exact percentiles; the histogram above */

/* One row: an exit reason (or an MMIO / I/O port key), or the total. */
struct stat_reason {
	char name[VPMC_REASON_MAX];
	uint64_t n, total_ns, min_ns, max_ns;
	/* the sum of the squares, exact (saturated at 2^128 - 1) for the standard deviation: an
	 * integer adds up the same in any order, so that merged summaries give the same figure */
	unsigned __int128 sum_sq;
	struct vpmc_hist h;
	uint64_t *exact; /* the samples while n <= STAT_EXACT_MAX, else NULL */
	bool sorted;
};

/* What perf kvm stat report --key sorts by (builtin-kvm.c; all largest first). */
enum stat_key { STAT_KEY_SAMPLE, STAT_KEY_TIME, STAT_KEY_MAX, STAT_KEY_MIN, STAT_KEY_TOTAL };

/* perf kvm stat report --event (tools/perf/arch/x86/util/kvm-stat.c, kvm_reg_events_ops[]). */
enum stat_event { STAT_EVENT_VMEXIT, STAT_EVENT_MMIO, STAT_EVENT_IOPORT };

#define STAT_NO_KEY UINT32_MAX /* an open sample whose row its end gives (mmio_event_begin()) */

struct stat_open {
	bool open;
	uint32_t reason; /* row index, or STAT_NO_KEY */
	uint64_t t;
};

struct vpmc_stat {
	uint8_t vcpus[VPMC_MAX_VCPUS / 8]; /* bit set: counted */
	bool vcpu_filter;
	uint64_t t_start, t_stop;
	struct stat_open *open;           /* per vCPU, VPMC_MAX_VCPUS entries */
	struct stat_reason *reasons;
	unsigned int nr_reasons, cap_reasons, last;
	struct stat_reason total;         /* every sample */
	enum stat_key key;
	enum stat_event event;
	uint64_t unpaired;                /* exits followed by another exit, not an entry */
	/* every exit, selected or not: for the warning when the selection has none */
	uint8_t exit_vcpus[VPMC_MAX_VCPUS / 8];
	uint64_t exits, exits_selected, exit_first_ns, exit_last_ns;
	uint64_t accesses;                /* MMIO and I/O port accesses seen (--event mmio, ioport) */
	char time_arg[96];                /* --time as given, "" if not */
	char **inputs;                    /* vpmc_stat_set_source(), merged summaries' */
	size_t nr_inputs;
	struct vpmc__errbuf err, warning;
	char *text;
};

/* Shared by stat.c and stat_summary.c. */
int stat_reason_index(struct vpmc_stat *s, const char *name, unsigned int *idx);
void stat_row_init(struct stat_reason *r, const char *name);
uint64_t stat_unpaired(const struct vpmc_stat *s);
/* The vCPUs of @set as "0,2-3" in @buf (@len bytes; "..." at the end if cut short). */
void stat_format_vcpus(const uint8_t *set, char *buf, size_t len);
/* The names vpmc_stat_set_event() and vpmc_stat_set_key() take for s->event and s->key. */
const char *stat_event_option(const struct vpmc_stat *s);
const char *stat_key_option(const struct vpmc_stat *s);

/* The merge_state of @s's JSON report (stat_summary.c): an allocation failure is recorded in
 * *@err. Return: the object, or NULL. */
json_t *stat_summary_state(struct vpmc_stat *s, int *err);

/* Set @s's options (event, key, --vcpu, --time) from merge_state @st. Return: 0, or -1. */
int stat_summary_setup(struct vpmc_stat *s, json_t *st);

/* Add the counts of merge_state @st (from file @path) to @s. Return: 0, or VPMC_ERR_PARSE
 * (the key named in @eb) or VPMC_ERR_NOMEM. */
int stat_summary_add(struct vpmc_stat *s, json_t *st, const char *path, struct vpmc__errbuf *eb);

#endif /* VPMC_REPORT_STAT_LOCAL_H */
