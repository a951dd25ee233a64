/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * overlay.h - "--assume SPEC": a guest profiler's counters laid over a trace that has no guest
 * PMU traffic (internal).
 *
 * At a vCPU's first event the overlay programs its counters the way Linux perf does
 * (x86_pmu_disable, x86_perf_event_set_period, x86_pmu_enable_event / intel_pmu_enable_fixed,
 * __intel_pmu_enable_all; amd_pmu_enable_all without PerfMonV2), and on each PMI the policy
 * delivers it runs the MSR accesses of Linux's PMI handler (intel_pmu_handle_irq() with late ack;
 * amd_pmu_v2_handle_irq(); amd_pmu_handle_irq() -> x86_pmu_handle_irq() without PerfMonV2) with
 * x86_perf_event_update() / x86_perf_event_set_period()'s arithmetic. Every access is an
 * intercepted instruction: exit, the access, one retired instruction at CPL 0, entry; vpmcsim(1)
 * (OVERLAY) lists the exact sequence.
 */
#ifndef VPMC_OVERLAY_H
#define VPMC_OVERLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <vpmc/event.h>

#include "internal.h"

#define OVERLAY_MAX_CTRS 11
#define OVERLAY_DEFAULT_PERIOD 100000
#define OVERLAY_SPEC_MAX 64

enum overlay_event {
	OVERLAY_EV_INSTRUCTIONS,
	OVERLAY_EV_BRANCHES,
	OVERLAY_EV_CYCLES,
	OVERLAY_EV_RAW,
};

struct overlay_ctr {
	bool fixed;
	unsigned int index;       /* GP or fixed counter number */
	enum overlay_event event; /* GP only */
	uint64_t raw;             /* OVERLAY_EV_RAW: event select | unit mask << 8 */
	uint64_t period;          /* events */
	char spec[OVERLAY_SPEC_MAX]; /* canonical text */
};

struct overlay {
	unsigned int nr;
	struct overlay_ctr ctr[OVERLAY_MAX_CTRS];
};

/* Guest perf state per vCPU (struct hw_perf_event's prev_count and period_left). */
struct overlay_guest {
	uint64_t prev_count[OVERLAY_MAX_CTRS];
	int64_t period_left[OVERLAY_MAX_CTRS];
};

/* How the overlay makes the guest act: apply one event to the policy's model (and to its
 * reference); for RDMSR and RDPMC set *value to what the policy's guest read. Return 0 or a
 * negative error, which stops the sequence. */
struct overlay_sink {
	int (*apply)(void *data, const struct vpmc_event *ev, uint64_t *value);
	void *data;
};

/*
 * overlay_add() - Parse one SPEC: "gpN=EVENT[,period=P]" or "fixedN[,period=P]", EVENT one of
 * instructions, branches, cycles or a raw 0xUUEE (unit mask, event select); P from 1 to
 * INT64_MAX events, each key once; a counter once.
 * Return: 0, or VPMC_ERR_INVAL with @why saying why; VPMC_ERR_LIMIT (@why set) if full.
 */
int overlay_add(struct overlay *ov, const char *spec, struct vpmc__errbuf *why);

/* Check @ov against the PMU: counters exist, a vPMU, and global control on Intel (AMD version 1
 * is driven through its event selects). Return 0, or
 * VPMC_ERR_INVAL with @msg ("--assume gp9: ...") set. */
int overlay_check(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
		  struct vpmc__errbuf *msg);

/* Program the counters at time @t (the vCPU's first event). */
int overlay_program(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
		    struct overlay_guest *g, uint32_t vcpu, uint64_t t,
		    const struct overlay_sink *sink);

/* Run the guest's PMI handler at time @t. */
int overlay_pmi_handler(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
			struct overlay_guest *g, uint32_t vcpu, uint64_t t,
			const struct overlay_sink *sink);

/*
 * overlay_msr_conflict() - Does the trace's own WRMSR of @msr = @value undo what
 * overlay_program() set up: an assumed counter's counter or event select MSR (any alias), its
 * FIXED_CTR_CTRL field, or its GLOBAL_CTRL bit cleared?
 * @name: set to the MSR's SDM/APM name ("IA32_PMC0") when it does; @len: its size
 * Return: the assumed counter's position in @ov, or -1.
 */
int overlay_msr_conflict(const struct overlay *ov, const struct vpmc_pmu_config *cfg,
			 uint32_t msr, uint64_t value, char *name, size_t len);

#endif /* VPMC_OVERLAY_H */
