/* SPDX-License-Identifier: GPL-2.0-only */
/* stat.h - Exit statistics' state (internal to stat.c). */
#ifndef VPMC_REPORT_STAT_H
#define VPMC_REPORT_STAT_H

#include <vpmc/stat.h>

#include "hist.h"
#include "internal.h"

struct stat_reason {
	char name[VPMC_REASON_MAX];
	uint64_t n, total_ns, min_ns, max_ns;
	double mean, m2; /* Welford, as perf's update_stats() */
	struct vpmc_hist h;
};

struct stat_open {
	bool open;
	unsigned int reason;
	uint64_t t;
};

struct vpmc_stat {
	uint8_t vcpus[VPMC_MAX_VCPUS / 8]; /* bit set: counted */
	bool vcpu_filter;
	uint64_t t_start, t_stop;
	struct stat_open *open;           /* per vCPU, VPMC_MAX_VCPUS entries */
	struct stat_reason *reasons;
	unsigned int nr_reasons, cap_reasons, last;
	uint64_t total_n, total_ns;
	uint64_t unpaired;                /* exits followed by another exit, not an entry */
	/* every exit, selected or not: for the warning when the selection has none */
	uint8_t exit_vcpus[VPMC_MAX_VCPUS / 8];
	uint64_t exits, exits_selected, exit_first_ns, exit_last_ns;
	char time_arg[96];                /* --time as given, "" if not */
	struct vpmc__errbuf err, warning;
	char *text;
};

#endif /* VPMC_REPORT_STAT_H */
